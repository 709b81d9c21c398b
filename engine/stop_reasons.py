"""Why a run ended: the engine's own reasons, and the ones each format declares.

The engine stops a run for reasons that say nothing about what was argued,
the same in every format (:class:`StopReason`):

- ``BUDGET``: what is left of the budget cannot pay for the next stage
  (engine/stopping.budget_decision);
- ``STOPPED_ON_REQUEST``: its owner asked it to stop (engine/services.request_stop);
- ``MAX_ROUNDS``: the format's route has no stage left, or the last round
  allowed is done;
- ``CRITICAL_DEFECT``: a stage could not give the run what it needs to go on
  (every call of a round failed, nothing usable came back, the thesis rests
  on no sound evidence), so it ends cut short.

A run the AI service failed does not *stop*: it ends ``failed`` with a
``DebateFailure`` code, since its owner can retry it (engine/orchestrator.py).

What a run concluded (the graph debate's ``CONSENSUS``, an inquiry's
``EVIDENCE_EXHAUSTED``...) is the format's to say: a format declares its
reasons with their labels (``Format.stop_reasons``), and the registry adds
them here when the format registers (engine/formats.register_format). Two
formats may share a reason if they word it alike. ``Debate.stop_reason``
takes its choices from :func:`stop_reason_choices`, a callable, so a format's
new reason needs no migration; the stored values are the same strings as
ever.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = [
    "MAX_LENGTH",
    "StopReason",
    "register_stop_reasons",
    "stop_reason_choices",
]

# The column's width (Debate.stop_reason): a reason longer than this could not be stored.
MAX_LENGTH = 20


class StopReason(models.TextChoices):
    """The engine's own reasons, in the priority order of its checks (engine/stopping.py)."""

    BUDGET = "BUDGET", _("budget spent")
    STOPPED_ON_REQUEST = "STOPPED_ON_REQUEST", _("stopped by its owner")
    CRITICAL_DEFECT = "CRITICAL_DEFECT", _("critical defect")
    MAX_ROUNDS = "MAX_ROUNDS", _("maximum rounds reached")


_REASONS: dict[str, Any] = dict(StopReason.choices)


def register_stop_reasons(choices: Iterable[tuple[str, Any]]) -> None:
    """Add a format's reasons (value, lazily translated label); a value is worded once."""
    for value, label in choices:
        value = str(value)
        if not 0 < len(value) <= MAX_LENGTH:
            raise ValueError(f"stop reason {value!r} does not fit in {MAX_LENGTH} characters")
        known = _REASONS.get(value)
        if known is not None and str(known) != str(label):
            raise ValueError(f"stop reason {value!r} is already registered with another label")
        _REASONS.setdefault(value, label)


def stop_reason_choices() -> list[tuple[str, Any]]:
    """Every reason a run may have ended for: the engine's, then the formats' as they registered."""
    return list(_REASONS.items())
