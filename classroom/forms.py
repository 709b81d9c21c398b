from __future__ import annotations

from typing import Any

from django import forms
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext_lazy as _

from coach.models import Argument
from coach.steps import label_for, reader_language


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Class code"), max_length=20, strip=True)


class AddStudentsForm(forms.Form):
    lines = forms.CharField(
        label=_("Usernames or e-mails, one per line"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
        help_text=_("A CSV column pasted here works too. Accounts must exist already."),
    )


class ArgumentChoiceField(forms.ModelChoiceField):
    """An argument by its title, when it was last changed and how far it is: a student
    who started "Later school start" three times can tell the three apart."""

    def label_from_instance(self, obj: Argument) -> str:
        when = date_format(localtime(obj.updated_at), "SHORT_DATETIME_FORMAT")
        if obj.is_complete:
            status = _("complete")
        else:
            status = _("in progress, at %(step)s") % {
                "step": label_for(obj.current_step, reader_language())
            }
        return _("%(title)s — %(when)s, %(status)s") % {
            "title": obj.title,
            "when": when,
            "status": status,
        }


class HandInForm(forms.Form):
    """One of the student's own arguments not yet handed in for any assignment."""

    argument = ArgumentChoiceField(
        label=_("Your argument"),
        queryset=None,
        empty_label=None,
    )

    def __init__(self, *args: Any, student: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["argument"].queryset = handable_arguments(student)


def handable_arguments(student: Any) -> Any:
    # Owner check by construction: only this student's arguments, none already a submission.
    return (
        Argument.objects.for_user(student)
        .filter(submission__isnull=True)
        .order_by("-updated_at", "-pk")
    )
