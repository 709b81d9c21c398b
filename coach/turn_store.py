"""The database side of a coach turn, as plain sync functions.

The turn itself is async (it streams); these run through `sync_to_async`
because transactions and row locks are sync-only in Django. Each function
is one short transaction, so no lock is held while the model is talking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction

from coach.models import Argument, CoachMessage, CoachTurn, Role
from llm import Usage

__all__ = [
    "Accounting",
    "TurnState",
    "load_turn_state",
    "record_failure",
    "record_success",
    "retried_message",
    "save_user_message",
]


@dataclass(frozen=True, slots=True)
class Accounting:
    """What one model call cost; zeros for the offline coach."""

    model: str = ""
    usage: Usage | None = None
    cost_usd: Decimal | None = None
    latency_ms: float = 0.0

    def turn_fields(self) -> dict[str, Any]:
        usage = self.usage or Usage()
        return {
            "model": self.model,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_creation_input_tokens": usage.cache_creation_input_tokens,
            "cache_read_input_tokens": usage.cache_read_input_tokens,
            "cost_usd": self.cost_usd or Decimal(0),
            "latency_ms": max(0, round(self.latency_ms)),
        }


@dataclass(frozen=True, slots=True)
class TurnState:
    """The draft and the transcript as the turn starts."""

    argument: Argument
    history: list[tuple[str, str]]  # (role, text), oldest first, without this message
    step_messages: list[str] = field(default_factory=list)  # earlier user texts on this step
    is_first_turn: bool = True


def save_user_message(
    *, argument: Argument, text: str, step: str, retry_of: int | None = None
) -> CoachMessage | None:
    """Store the student's words first, so no failure can lose them. Empty: nothing to store.

    A retry (`retry_of`: the id the failed turn's stream reported) reuses the
    stored message instead of storing the words a second time, so the
    transcript shows them once. See `retried_message` for when that is allowed.
    """
    if not text.strip():
        return None
    if retry_of is not None:
        earlier = retried_message(argument=argument, message_id=retry_of, text=text, step=step)
        if earlier is not None:
            return earlier
    return CoachMessage.objects.create(argument=argument, role=Role.USER, text=text, step=step)


def retried_message(
    *, argument: Argument, message_id: int, text: str, step: str
) -> CoachMessage | None:
    """The stored message a retry may reuse, or None (then the words are stored anew).

    Only the argument's latest message qualifies, and only a student's one
    with the same words on the same step: a message that got an answer (or
    was followed by anything) belongs to a finished exchange, and a retry
    from a stale page or of other words is a new message. Another argument's
    id never matches, so nobody can attach words to someone else's transcript.
    """
    latest = CoachMessage.objects.filter(argument=argument).order_by("-id").first()
    if (
        latest is None
        or latest.pk != message_id
        or latest.role != Role.USER
        or latest.step != step
        or latest.text != text
    ):
        return None
    return latest


def load_turn_state(*, argument_id: int, user_message_id: int | None) -> TurnState:
    """The fresh draft, the transcript before this message, and whether it opens the step."""
    argument = Argument.objects.get(pk=argument_id)
    earlier = CoachMessage.objects.filter(argument=argument)
    if user_message_id is not None:
        earlier = earlier.exclude(pk=user_message_id).filter(pk__lt=user_message_id)
    history = [(m.role, m.text) for m in earlier.order_by("created_at", "id")]
    step_messages = [
        m.text for m in earlier.filter(role=Role.USER, step=argument.current_step).order_by("id")
    ]
    return TurnState(
        argument=argument,
        history=history,
        step_messages=step_messages,
        is_first_turn=not step_messages,
    )


def record_failure(
    *,
    argument_id: int,
    step: str,
    user_message_id: int | None,
    coach: str,
    error_code: str,
    detail: str,
    accounting: Accounting,
    raw_result: Any = None,
    decisions: list[dict[str, Any]] | None = None,
) -> CoachTurn:
    """A failed turn leaves a record (and what it cost) but never touches the draft."""
    return CoachTurn.objects.create(
        argument_id=argument_id,
        user_message_id=user_message_id,
        step=step,
        coach=coach,
        raw_result=raw_result,
        guard_decisions=decisions or [],
        error_code=error_code,
        error_detail=detail[:2000],
        **accounting.turn_fields(),
    )


def record_success(
    *,
    argument_id: int,
    step: str,
    user_message_id: int | None,
    coach: str,
    raw_result: dict[str, Any],
    guarded_result: dict[str, Any],
    decisions: list[dict[str, Any]],
    accounting: Accounting,
) -> CoachMessage:
    """Save the coach's message, the turn record and any new proposal, all or nothing.

    A proposal becomes the pending one only if the student is still on the
    step it was made for (another tab may have accepted meanwhile). A reply
    without a proposal leaves an earlier pending proposal in place: the
    student can still accept it, and a later "yes" refers to it.
    """
    with transaction.atomic():
        argument = Argument.objects.select_for_update().get(pk=argument_id)
        reply = CoachMessage.objects.create(
            argument=argument, role=Role.ASSISTANT, text=guarded_result["assistantText"], step=step
        )
        proposal = guarded_result.get("proposedUpdate")
        if proposal and argument.current_step == step and not argument.is_complete:
            argument.pending_proposal = {
                "field": proposal["field"],
                "value": proposal["value"],
                "rationale": proposal.get("rationale") or "",
            }
            argument.save(update_fields=["pending_proposal", "updated_at"])
        CoachTurn.objects.create(
            argument=argument,
            user_message_id=user_message_id,
            assistant_message=reply,
            step=step,
            coach=coach,
            raw_result=raw_result,
            guarded_result=guarded_result,
            guard_decisions=decisions,
            **accounting.turn_fields(),
        )
    return reply
