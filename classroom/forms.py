from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Class code"), max_length=20, strip=True)


class AddStudentsForm(forms.Form):
    lines = forms.CharField(
        label=_("Usernames or e-mails, one per line"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
        help_text=_("A CSV column pasted here works too. Accounts must exist already."),
    )
