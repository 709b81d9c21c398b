"""The graph debate's form: starting a debate (the history's filters are engine/forms.py)."""

from __future__ import annotations

from decimal import ROUND_UP, Decimal

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from debates.persona_words import persona_name
from engine.models import (
    DEFAULT_BUDGET_USD,
    DEFAULT_ROUNDS,
    MAX_ROUNDS,
    MIN_ROUNDS,
    Persona,
)
from untrusted.forms import IdsChoiceField, validate_storable_text

__all__ = ["DebateForm", "MAX_PERSONAS", "MIN_PERSONAS"]

# Two voices are the least that can disagree; beyond six the attack stage's
# prompt (every argument, every label) outgrows what a persona reads well.
MIN_PERSONAS = 2
MAX_PERSONAS = 6
MIN_BUDGET_USD = Decimal("0.01")
MAX_BUDGET_USD = Decimal("50.00")


def _rounds_help() -> str:
    # Says the limits, so that 8 is refused with a reason rather than quietly made 5.
    return gettext(
        "Attack rounds after the opening arguments: from %(low)d to %(high)d. "
        "The debate may stop earlier."
    ) % {"low": MIN_ROUNDS, "high": MAX_ROUNDS}


class DebateForm(forms.Form):
    topic = forms.CharField(
        label=_("Topic"),
        min_length=10,
        max_length=500,
        validators=[validate_storable_text],
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("A question or a proposition people disagree about."),
    )
    personas = IdsChoiceField(
        label=_("Personas"),
        queryset=Persona.objects.filter(active=True),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Pick two to six voices."),
    )
    max_rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=MIN_ROUNDS,
        max_value=MAX_ROUNDS,
        initial=DEFAULT_ROUNDS,
        help_text=lazy(_rounds_help, str)(),
        error_messages={
            "max_value": _("At most %(limit_value)s rounds: pick %(limit_value)s or fewer."),
            "min_value": _("At least %(limit_value)s round is needed."),
            "invalid": _("Rounds must be a whole number."),
        },
    )
    budget_usd = forms.DecimalField(
        label=_("Budget (USD)"),
        min_value=MIN_BUDGET_USD,
        max_value=MAX_BUDGET_USD,
        max_digits=6,
        decimal_places=2,
        initial=DEFAULT_BUDGET_USD,
        help_text=_("The debate stops cleanly, keeping what it has, before spending more."),
    )

    def __init__(self, *args, user=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # A built-in persona's name in the reader's language (debates.persona_words).
        self.fields["personas"].label_from_instance = persona_name
        if user is not None and not getattr(user, "is_staff", False):
            # A student is asked for no dollar budget: the estimate shown is the cost,
            # and the debate gets half again as much as its ceiling (budget()).
            del self.fields["budget_usd"]

    def budget(self) -> Decimal:
        """The chosen budget (staff), or half again the estimate, in whole cents (students)."""
        if "budget_usd" in self.fields:
            return self.cleaned_data["budget_usd"]
        from debates.services import estimate_cost

        cost = estimate_cost(
            personas=self.cleaned_data["personas"], rounds=self.cleaned_data["max_rounds"]
        )
        budget = (cost * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_UP)
        return min(max(budget, MIN_BUDGET_USD), MAX_BUDGET_USD)

    def clean_topic(self) -> str:
        # Collapse runs of whitespace: the topic goes into every prompt.
        return " ".join(self.cleaned_data["topic"].split())

    def clean_personas(self) -> list[Persona]:
        personas = list(self.cleaned_data["personas"])
        if not MIN_PERSONAS <= len(personas) <= MAX_PERSONAS:
            raise forms.ValidationError(
                _("Pick between %(low)d and %(high)d personas."),
                params={"low": MIN_PERSONAS, "high": MAX_PERSONAS},
                code="persona_count",
            )
        return personas
