"""The one form of the trial pages: a free-text question to put on trial."""

from django import forms
from django.utils.translation import gettext_lazy as _

from trials.services import MAX_QUESTION_CHARS
from untrusted.forms import validate_storable_text

__all__ = ["QuestionForm"]


class QuestionForm(forms.Form):
    question = forms.CharField(
        label=_("Your question or claim"),
        max_length=MAX_QUESTION_CHARS,
        validators=[validate_storable_text],
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("For example: Should cities replace car lanes with bus lanes?"),
    )
