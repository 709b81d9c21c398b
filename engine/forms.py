"""The runs history's filters (engine/views.py), for runs of every format."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.formats import formats
from engine.models import DebateStatus
from engine.stop_reasons import stop_reason_choices
from untrusted.forms import validate_storable_text

__all__ = ["RunFilterForm"]


def _format_choices() -> list[tuple[str, str]]:
    return [("", _("any format")), *((f.name, f.label) for f in formats())]


def _stop_reason_choices() -> list[tuple[str, str]]:
    # The engine's reasons and every registered format's (engine/stop_reasons.py).
    return [("", _("any stop reason")), *stop_reason_choices()]


class RunFilterForm(forms.Form):
    """The history's filters; every field is optional and bad values are ignored."""

    q = forms.CharField(
        label=_("Search topics"),
        required=False,
        max_length=200,
        validators=[validate_storable_text],
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("any status")), *DebateStatus.choices],
    )
    stop_reason = forms.ChoiceField(
        label=_("Stop reason"), required=False, choices=_stop_reason_choices
    )
    format = forms.ChoiceField(label=_("Format"), required=False, choices=_format_choices)
    mine = forms.BooleanField(label=_("Only mine"), required=False)
