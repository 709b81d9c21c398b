"""How a run stops, for every format: the decision, and the engine's own stop.

A format's stop check (the graph debate's in debates/stopping.py) returns a
:class:`StopDecision`: a reason (the engine's ``StopReason`` or one the format
declares, engine/stop_reasons.py), and for people a code with its parameters,
worded at display time (engine/stop_messages.py).
The engine adds two stops of its own, checked *before* each stage: ``BUDGET``,
the budget cannot pay for the next stage (:func:`budget_decision`, from the
stage's own prompts), and ``STOPPED_ON_REQUEST``, the run's owner asked it to
stop (:func:`stop_request_decision`). Neither says anything about the
argument, so neither is one of any format's reasons. A run the AI service
failed ends ``failed`` with a failure code instead (engine/orchestrator.py),
since it can be retried. The functions are pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_noop

from engine.stop_messages import english, register_stop_messages
from engine.stop_reasons import StopReason

__all__ = [
    "BUDGET",
    "STOPPED_REASONS",
    "STOPPED_ON_REQUEST",
    "StopDecision",
    "budget_decision",
    "is_budget_stop",
    "stop_request_decision",
]

BUDGET = "budget"
STOPPED_ON_REQUEST = "stopped_on_request"
register_stop_messages(
    {
        STOPPED_ON_REQUEST: gettext_noop(
            "Its owner stopped it before the next stage (%(stage)s, round %(round)s)."
        ),
        BUDGET: gettext_noop(
            "The next stage (%(stage)s, round %(round)s) would cost about "
            "$%(estimate)s, but only $%(left)s of $%(budget)s is left."
        ),
        # The format's route has no stage left (engine/orchestrator.py): MAX_ROUNDS.
        "all_rounds_done": gettext_noop("All rounds are done."),
    }
)

# Reasons that end a run "stopped" (cut short) rather than "done".
STOPPED_REASONS = frozenset(
    {StopReason.BUDGET, StopReason.STOPPED_ON_REQUEST, StopReason.CRITICAL_DEFECT}
)


@dataclass(frozen=True, slots=True)
class StopDecision:
    """Why a run stops: the reason, and for people a code with its parameters.

    ``detail`` is the English sentence, for a format's output document and the
    command line; the run row and its events keep only ``code`` and ``params``
    (when there is a code), which pages word in the reader's language.
    """

    # A str enum member, the engine's StopReason or one of the format's own: its value is stored.
    reason: str
    detail: str
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def coded(cls, reason: str, code: str, **params: Any) -> StopDecision:
        return cls(reason, english(code, params), code, params)


def budget_decision(
    *, budget: Decimal, spent: Decimal, next_stage: str, round: int, estimate: Decimal
) -> StopDecision | None:
    """Stop before a stage whose estimated cost exceeds what is left of the budget."""
    remaining = budget - spent
    if estimate <= remaining:
        return None
    return StopDecision.coded(
        StopReason.BUDGET,
        BUDGET,
        stage=next_stage,
        round=round,
        estimate=f"{estimate:.4f}",
        left=f"{max(remaining, Decimal(0)):.4f}",
        budget=f"{budget:.2f}",
    )


def stop_request_decision(*, requested: bool, next_stage: str, round: int) -> StopDecision | None:
    """Stop before a stage when the run's owner has asked it to stop."""
    if not requested:
        return None
    return StopDecision.coded(
        StopReason.STOPPED_ON_REQUEST, STOPPED_ON_REQUEST, stage=next_stage, round=round
    )


def is_budget_stop(*, reason: str, code: str) -> bool:
    """True when a run ended because its budget could not pay for the next stage.

    Events recorded before ``BUDGET`` was a reason of its own say ``CRITICAL_DEFECT``
    with the ``budget`` code; the replays still read them.
    """
    return reason == StopReason.BUDGET or code == BUDGET
