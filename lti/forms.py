from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.models import Assignment, Classroom


class LinkAssignmentForm(forms.Form):
    """Pick an assignment of the class, or give a title and prompt for a new one."""

    assignment = forms.ModelChoiceField(
        label=_("Existing assignment"),
        queryset=Assignment.objects.none(),
        required=False,
        empty_label=_("— a new assignment —"),
    )
    title = forms.CharField(label=_("Title of a new assignment"), max_length=200, required=False)
    prompt = forms.CharField(
        label=_("Prompt of a new assignment"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=4000,
        required=False,
    )

    def __init__(self, *args: Any, classroom: Classroom, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.classroom = classroom
        self.fields["assignment"].queryset = classroom.assignments.all()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("assignment") is None and not (
            (data.get("title") or "").strip() and (data.get("prompt") or "").strip()
        ):
            raise forms.ValidationError(
                _("Choose an assignment, or give a title and a prompt for a new one.")
            )
        return data

    def save(self, *, user: Any) -> Assignment:
        if self.cleaned_data.get("assignment") is not None:
            return self.cleaned_data["assignment"]
        return Assignment.objects.create(
            classroom=self.classroom,
            title=self.cleaned_data["title"].strip(),
            prompt=self.cleaned_data["prompt"].strip(),
            created_by=user,
        )
