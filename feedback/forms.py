"""Forms for the instructor's feedback page and the student's reply."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.models import Submission
from coach.steps import STEPS, label_for, reader_language
from feedback.models import MAX_COMMENT_CHARS, MAX_REPLY_CHARS
from untrusted.forms import validate_storable_text

__all__ = ["CommentForm", "ReplyForm"]

MESSAGE_PREVIEW_CHARS = 80


class CommentForm(forms.Form):
    element = forms.ChoiceField(label=_("Element"))
    message = forms.TypedChoiceField(
        label=_("Message of the transcript (optional)"),
        required=False,
        coerce=int,
        empty_value=None,
    )
    text = forms.CharField(
        label=_("Comment"),
        max_length=MAX_COMMENT_CHARS,
        widget=forms.Textarea(attrs={"rows": 4}),
        validators=[validate_storable_text],
    )

    def __init__(self, *args: Any, submission: Submission, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if submission.argument is None:  # a discussion: one comment box, no transcript
            self.fields["element"].choices = [("discussion", _("the posts as a whole"))]
            self.fields["message"].choices = [("", _("none"))]
            return
        # The teacher's language, as the page's headings: not the argument's.
        language = reader_language()
        self.fields["element"].choices = [(s.id, label_for(s.id, language)) for s in STEPS]
        messages = submission.argument.messages.order_by("created_at", "id")
        self.fields["message"].choices = [("", _("none"))] + [
            (m.pk, f"#{n} {m.get_role_display()}: {m.text[:MESSAGE_PREVIEW_CHARS]}")
            for n, m in enumerate(messages, start=1)
        ]


class ReplyForm(forms.Form):
    text = forms.CharField(
        label=_("Your reply"),
        max_length=MAX_REPLY_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
        validators=[validate_storable_text],
    )
