"""The new-tournament form: the page's edge; create_tournament re-checks everything."""

from __future__ import annotations

from decimal import ROUND_UP, Decimal

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from casefiles.models import CaseFile
from home.spend import model_levels
from tournaments.model_names import model_display_name
from tournaments.models import DecisionTypeChoice
from tournaments.services import DEFAULT_MODELS, estimate_tournament_cost

__all__ = ["TournamentForm", "model_choices"]

MIN_BUDGET_USD = Decimal("0.01")
MAX_BUDGET_USD = Decimal("100")


def model_choices() -> list[tuple[str, str]]:
    """(id, readable name): a student picks "Claude Opus 5.5"; the page shows the id small
    to instructors (templates/tournaments/new.html)."""
    return [
        (m, model_display_name(m)) for m in getattr(settings, "TOURNAMENT_MODELS", DEFAULT_MODELS)
    ]


class TournamentForm(forms.Form):
    question = forms.CharField(
        label=_("Decision question"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("For example: Which database for a 10,000-student course platform?"),
    )
    decision_type = forms.ChoiceField(
        label=_("Decision type"), choices=DecisionTypeChoice.choices, initial="database"
    )
    models = forms.MultipleChoiceField(
        label=_("Models"),
        choices=model_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Two to five."),
    )
    context = forms.CharField(
        label=_("Context"),
        required=False,
        max_length=8000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Facts the models should know (optional)."),
    )
    case_file = forms.ModelChoiceField(
        label=_("Case file"),
        queryset=CaseFile.objects.none(),
        required=False,
        empty_label=_("None: research searches the context"),
        help_text=_("The readings the models' research queries search (optional)."),
        error_messages={
            "invalid_choice": _(
                "That case file is not one you can use. Choose one of yours or a public one."
            )
        },
    )
    max_rounds = forms.IntegerField(
        label=_("Rounds per match"), min_value=1, max_value=5, initial=3
    )
    convergence_threshold = forms.FloatField(
        label=_("Convergence threshold"), min_value=0, max_value=100, initial=80
    )
    budget_usd = forms.DecimalField(
        label=_("Budget (USD)"),
        min_value=MIN_BUDGET_USD,
        max_value=MAX_BUDGET_USD,
        decimal_places=2,
        initial=Decimal("1.00"),
    )
    force_diversity = forms.BooleanField(
        label=_("Models from different families only"), required=False
    )
    no_cache = forms.BooleanField(label=_("Do not use cached answers"), required=False)

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only what the user may read (their own and the public ones): anything else
        # posted by hand is an invalid choice, shown on the field.
        self.fields["case_file"].queryset = CaseFile.objects.for_user(user).order_by("title")
        if not getattr(user, "is_staff", False):
            # A student is asked for no dollar budget (as on the debate form): the
            # estimate shown is the cost, and the tournament gets half again as much.
            del self.fields["budget_usd"]
            # Nor model names: a plain level each ("A quick model"), by price.
            ids = [model for model, _name in model_choices()]
            levels = model_levels(ids, settings.LLM_PRICES)
            self.fields["models"].choices = [(model, levels[model]) for model in ids]

    def budget(self) -> Decimal:
        """The chosen budget (staff), or half again the estimate, in whole cents (students)."""
        if "budget_usd" in self.fields:
            return self.cleaned_data["budget_usd"]
        cost = estimate_tournament_cost(
            models=self.cleaned_data["models"],
            max_rounds=self.cleaned_data["max_rounds"],
            cheap_model=settings.CHEAP_MODEL,
            prices=settings.LLM_PRICES,
            context=self.cleaned_data.get("context") or "",
        )
        budget = (cost * Decimal("1.5")).quantize(Decimal("0.01"), rounding=ROUND_UP)
        # Above the ceiling, create_tournament refuses the estimate in plain words.
        return min(max(budget, MIN_BUDGET_USD), MAX_BUDGET_USD)

    def clean_models(self) -> list[str]:
        chosen = self.cleaned_data["models"]
        if not 2 <= len(chosen) <= 5:
            raise forms.ValidationError(_("Choose two to five models."))
        return chosen
