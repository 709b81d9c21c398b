"""The new-inquiry form."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_UP, Decimal

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from casefiles.models import CaseFile
from config.languages import language_choices
from engine.models import MAX_ROUNDS, MIN_ROUNDS
from untrusted.forms import validate_storable_text

__all__ = ["LEVELS", "SPECIALIST_CHOICES", "InquiryForm", "Level"]

MODEL_FIELDS = {
    "advocate": _("Advocate's model"),
    "challenger": _("Sanad Breaker's model"),
    "observer": _("Observers' model"),
    "arbiter": _("Arbiter's model"),
}


# One checkbox per optional observer (inquiries.graph.SPECIALISTS); later
# specialists are more choices in the same list.
SPECIALIST_CHOICES = [("methodologist", _("Add a methodologist to the observers"))]


@dataclass(frozen=True)
class Level:
    """What a student chooses instead of models and a budget: how hard the agents work."""

    label: str
    strong: frozenset[str]  # the agents given the debate model; the others get the cheap one

    def models(self) -> dict[str, str]:
        return {
            key: settings.DEBATE_MODEL if key in self.strong else settings.CHEAP_MODEL
            for key in MODEL_FIELDS
        }


LEVELS = {
    "quick": Level(_("Quick"), frozenset()),
    "standard": Level(_("Standard"), frozenset({"advocate", "arbiter"})),
    "thorough": Level(_("Thorough"), frozenset(MODEL_FIELDS)),
}


def level_budget(level: Level, *, rounds: int, specialists=()) -> Decimal:
    """A budget for a level: half again its estimate for every round, in whole cents."""
    from inquiries.services import estimate_inquiry_cost

    cost = estimate_inquiry_cost(models=level.models(), rounds=rounds, specialists=specialists)
    budget = (cost * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_UP)
    return min(max(budget, Decimal("0.05")), Decimal("50"))


class InquiryForm(forms.Form):
    question = forms.CharField(
        label=_("Question"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        validators=[validate_storable_text],
        help_text=_("What should the inquiry settle, from the case file's readings?"),
    )
    case_file = forms.ModelChoiceField(label=_("Case file"), queryset=CaseFile.objects.none())
    max_rounds = forms.IntegerField(
        label=_("Rounds at most"), min_value=MIN_ROUNDS, max_value=MAX_ROUNDS, initial=3
    )
    budget_usd = forms.DecimalField(
        label=_("Budget (USD)"),
        min_value=Decimal("0.05"),
        max_value=Decimal("50"),
        decimal_places=2,
        initial=Decimal("1.00"),
    )
    language = forms.ChoiceField(label=_("Language"), choices=language_choices, initial="en")
    specialists = forms.MultipleChoiceField(
        label=_("Specialist observers"),
        choices=SPECIALIST_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "The methodologist checks how the evidence was gathered: sample, method, "
            "measurement, and whether it shows a cause or only a correlation. "
            "One more call per round."
        ),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["case_file"].queryset = (
            CaseFile.objects.for_user(user).filter(spans__isnull=False).distinct()
        )
        if not getattr(user, "is_staff", False):
            # A student picks a named level, never a model id, a budget or a price.
            del self.fields["budget_usd"]
            self.fields["level"] = forms.ChoiceField(
                label=_("How thorough"),
                # The level's name only: a student sees no dollars (home/spend.py).
                choices=[(key, level.label) for key, level in LEVELS.items()],
                initial="standard",
                required=False,  # none chosen: the standard level
                widget=forms.RadioSelect,
                help_text=_("A more thorough inquiry asks stronger models, and costs more."),
            )
            return
        choices = [(name, name) for name in settings.LLM_PRICES]
        for key, label in MODEL_FIELDS.items():
            self.fields[key] = forms.ChoiceField(
                label=label, choices=choices, initial=settings.DEBATE_MODEL
            )

    def level(self) -> Level | None:
        """The student's level (None on a staff form, which names models and a budget)."""
        if "level" not in self.fields:
            return None
        return LEVELS[self.cleaned_data.get("level") or self.fields["level"].initial]

    def models(self) -> dict[str, str]:
        if (level := self.level()) is not None:
            return level.models()
        return {key: self.cleaned_data[key] for key in MODEL_FIELDS}

    def budget(self) -> Decimal:
        if (level := self.level()) is not None:
            return level_budget(
                level,
                rounds=self.cleaned_data["max_rounds"],
                specialists=self.cleaned_data.get("specialists") or (),
            )
        return self.cleaned_data["budget_usd"]
