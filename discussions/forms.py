"""The discussion page's forms: an argument, an objection, hiding a post."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from argumentation.schemes import SCHEMES
from discussions.models import MAX_PREMISES, MAX_TEXT, AttackType, Component, Side
from discussions.presenters import language
from untrusted.forms import validate_storable_text

PREMISE_FIELDS = 3


def _text(label: Any, *, required: bool = True, rows: int = 2) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=required,
        max_length=MAX_TEXT,
        validators=[validate_storable_text],
        widget=forms.Textarea(attrs={"rows": rows, "maxlength": MAX_TEXT}),
    )


class _PremisesMixin:
    def premises(self) -> list[str]:
        data = self.cleaned_data  # type: ignore[attr-defined]
        return [data.get(f"premise_{i}") or "" for i in range(1, PREMISE_FIELDS + 1)]


class ArgumentForm(_PremisesMixin, forms.Form):
    side = forms.ChoiceField(
        label=_("Your argument is"), choices=Side.choices, widget=forms.RadioSelect
    )
    claim = _text(_("Claim"))
    premise_1 = _text(_("Premise 1"))
    premise_2 = _text(_("Premise 2 (optional)"), required=False)
    premise_3 = _text(_("Premise 3 (optional)"), required=False)
    scheme = forms.ChoiceField(label=_("Argument scheme (optional)"), required=False)

    def __init__(self, *args: Any, team: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if team in ("for", "against"):
            # A team argues its own side only (discussions.teams): the one choice, made.
            self.fields["side"].choices = [c for c in Side.choices if c[0] == team]
            self.fields["side"].initial = team
        lang = language()
        self.fields["scheme"].choices = [("", _("none named"))] + [
            (s.code, s.name[lang]) for s in SCHEMES
        ]


class ObjectionForm(_PremisesMixin, forms.Form):
    attack_type = forms.ChoiceField(
        label=_("How you object"), choices=AttackType.choices, widget=forms.RadioSelect
    )
    premise_index = forms.TypedChoiceField(
        label=_("Which premise"), required=False, coerce=int, empty_value=None, choices=()
    )
    claim = _text(_("Your objection"))
    premise_1 = _text(_("Because (optional)"), required=False)
    premise_2 = _text(_("And because (optional)"), required=False)
    question = forms.CharField(required=False, widget=forms.HiddenInput, max_length=60)

    #: The type decides the part attacked (a rebut denies the claim, an undermine a
    #: premise, an undercut the inference): one choice for the student, not two to match.
    COMPONENT_FOR = {
        AttackType.REBUT: Component.CLAIM,
        AttackType.UNDERMINE: Component.PREMISE,
        AttackType.UNDERCUT: Component.INFERENCE,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if attack_type := data.get("attack_type"):
            data["component"] = str(self.COMPONENT_FOR[attack_type])
        return data

    def __init__(self, *args: Any, premises: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["premise_index"].choices = [("", "—")] + [
            (str(i), _("Premise %(n)d") % {"n": i + 1}) for i in range(min(premises, MAX_PREMISES))
        ]


class HideForm(forms.Form):
    hidden = forms.BooleanField(required=False, initial=True, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Why (the author reads this)"),
        required=False,
        max_length=300,
        validators=[validate_storable_text],
    )
