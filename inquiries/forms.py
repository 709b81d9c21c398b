"""The new-inquiry form."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from casefiles.models import CaseFile
from debates.models import MAX_ROUNDS, MIN_ROUNDS
from untrusted.forms import validate_storable_text

__all__ = ["SPECIALIST_CHOICES", "InquiryForm"]

MODEL_FIELDS = {
    "advocate": _("Advocate's model"),
    "challenger": _("Sanad Breaker's model"),
    "observer": _("Observers' model"),
    "arbiter": _("Arbiter's model"),
}


# One checkbox per optional observer (inquiries.graph.SPECIALISTS); later
# specialists are more choices in the same list.
SPECIALIST_CHOICES = [("methodologist", _("Add a methodologist to the observers"))]


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
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES, initial="en")
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
        choices = [(name, name) for name in settings.LLM_PRICES]
        for key, label in MODEL_FIELDS.items():
            self.fields[key] = forms.ChoiceField(
                label=label, choices=choices, initial=settings.DEBATE_MODEL
            )

    def models(self) -> dict[str, str]:
        return {key: self.cleaned_data[key] for key in MODEL_FIELDS}
