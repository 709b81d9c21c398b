from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from coach.models import Argument


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Class code"), max_length=20, strip=True)


class AddStudentsForm(forms.Form):
    lines = forms.CharField(
        label=_("Usernames or e-mails, one per line"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
        help_text=_("A CSV column pasted here works too. Accounts must exist already."),
    )


class HandInForm(forms.Form):
    """One of the student's own arguments not yet handed in for any assignment."""

    argument = forms.ModelChoiceField(
        label=_("Your argument"),
        queryset=None,
        empty_label=None,
    )

    def __init__(self, *args: Any, student: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["argument"].queryset = handable_arguments(student)


def handable_arguments(student: Any) -> Any:
    # Owner check by construction: only this student's arguments, none already a submission.
    return Argument.objects.for_user(student).filter(submission__isnull=True)
