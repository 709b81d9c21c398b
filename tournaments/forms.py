"""The new-tournament form (issue 10): the page's edge; create_tournament re-checks everything."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from casefiles.models import CaseFile
from tournaments.models import DecisionTypeChoice
from tournaments.services import DEFAULT_MODELS

__all__ = ["TournamentForm", "model_choices"]


def model_choices() -> list[tuple[str, str]]:
    return [(m, m) for m in getattr(settings, "TOURNAMENT_MODELS", DEFAULT_MODELS)]


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
        min_value=Decimal("0.01"),
        max_value=Decimal("100"),
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

    def clean_models(self) -> list[str]:
        chosen = self.cleaned_data["models"]
        if not 2 <= len(chosen) <= 5:
            raise forms.ValidationError(_("Choose two to five models."))
        return chosen
