"""The database side of a coach turn, as plain sync functions.

The turn itself is async (it streams); these run through `sync_to_async`
because the ORM and row locks are sync-only in Django. A turn makes two such
calls: `begin_turn` before the model is called, `record_success` or
`record_failure` after it. No lock is held while the model is talking, and
the turn pays for two thread hops, not one per query.

The reads are the ORM's (the transcript's through `coach.models.CoachMessageQuerySet`),
each a fixed number of queries however long the transcript grows
(tests/coach/test_turn_cost.py holds a turn to its budget).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from django.db import transaction

from coach.intents import classify
from coach.models import Argument, CoachMessage, CoachTurn, Role
from coach.policy import OPEN, Policy, policy_for
from coach.prompts import HISTORY_LIMIT
from coach.provenance import is_students_own
from coach.steps import is_step
from llm import Usage

__all__ = [
    "Accounting",
    "TurnState",
    "begin_turn",
    "record_failure",
    "record_success",
    "retried_message",
]

R = TypeVar("R")


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
    """The draft and the transcript as the turn starts, and the student's stored message."""

    argument: Argument
    # (role, text), oldest first, without this message: the last HISTORY_LIMIT
    # messages, all that the prompt sends along.
    history: list[tuple[str, str]]
    step_messages: list[str] = field(default_factory=list)  # earlier user texts on this step
    is_first_turn: bool = True
    user_message_id: int | None = None  # None: an empty message, nothing stored
    shown_step: str = ""  # the step the page showed (the stored message's step)
    policy: Policy = OPEN  # an instructor's rules for this argument (coach.policy)
    # The language the page is shown in (the reader's): the coach names its buttons in it.
    page_language: str = ""

    @property
    def rejected_value(self) -> str:
        """The text the student rejected last on the current step ("": none)."""
        rejected = self.argument.rejected_proposal or {}
        if rejected.get("field") != self.argument.current_step:
            return ""
        return str(rejected.get("value") or "")


def _store_and_read(
    *, argument: Argument, text: str, step: str, retry_of: int | None
) -> tuple[CoachMessage | None, list[tuple[str, str]], list[str]]:
    """Store the student's words first, so no failure can lose them, and read the transcript
    before them: its latest messages and the student's words on the current step. Empty
    words: nothing stored.

    A retry (`retry_of`: the id the failed turn's stream reported) reuses the
    stored message instead of storing the words a second time, so the
    transcript shows them once. See `retried_message` for when that is allowed.
    """
    stored = None
    if text.strip() and retry_of is not None:
        stored = retried_message(argument=argument, message_id=retry_of, text=text, step=step)
    if text.strip() and stored is None:
        stored = CoachMessage.objects.create(
            argument=argument, role=Role.USER, text=text, step=step
        )
    earlier = argument.messages.before(stored.pk if stored is not None else None)
    return (
        stored,
        earlier.latest_said(HISTORY_LIMIT),
        earlier.students_words_on(argument.current_step),
    )


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


def begin_turn(
    *,
    argument: Argument,
    message: str,
    step: str,
    retry_of: int | None = None,
    refuse: Callable[[Policy], R | None] | None = None,
    page_language: str = "",
) -> TurnState | R:
    """Store the student's message on `argument` (the student's own: the caller found it)
    and load what the turn needs.

    `refuse` is asked first, with the argument's policy: what it returns (not
    None) is returned instead, and nothing is stored. The policy is read once,
    here, for the refusal and the turn alike. `step` is the step the page
    shows; an unknown one is stored as the argument's current step. The
    caller compares it with the current step (a stale page) once the message
    is safely stored.
    """
    # No transaction: the turn writes one row here (the student's message; rarely also
    # the argument, independently), and PostgreSQL's READ COMMITTED gives statements no
    # shared snapshot anyway.
    policy = policy_for(argument)
    refused = refuse(policy) if refuse is not None else None
    if refused is not None:
        return refused
    shown_step = step if is_step(step) else argument.current_step
    stored, history, step_messages = _store_and_read(
        argument=argument, text=message, step=shown_step, retry_of=retry_of
    )
    _forget_rejection_retyped(argument, message)
    return TurnState(
        argument=argument,
        history=history,
        step_messages=step_messages,
        # A question about the step is answered, not an attempt: the student's first
        # attempt after it is still their first one (coach.guards.first_turn_bias).
        # any() stops at the first attempt: this ran classify over every earlier
        # message on the step, every turn (a turn's cost grew with the transcript).
        is_first_turn=not any(
            classify(text, argument.current_step).kind != "question" for text in step_messages
        ),
        user_message_id=stored.pk if stored is not None else None,
        shown_step=shown_step,
        policy=policy,
        page_language=page_language,
    )


def _forget_rejection_retyped(argument: Argument, message: str) -> None:
    """A student who types the words they rejected wants them after all: forget the rejection.

    Otherwise the rejection stands until the step changes, so a "yes" does
    not bring the rejected text back (coach.guards.rejected_again).
    """
    rejected = argument.rejected_proposal or {}
    if not rejected or rejected.get("field") != argument.current_step:
        return
    if classify(message, argument.current_step).kind != "attempt":
        return
    if is_students_own(str(rejected.get("value") or ""), [message]):
        argument.rejected_proposal = None
        argument.save(update_fields=["rejected_proposal", "updated_at"])


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
    proposal = guarded_result.get("proposedUpdate")
    with transaction.atomic():
        if proposal:
            # A proposal needs the draft, locked (before anything else, as the accept and
            # reject endpoints do) to check where the student is now.
            argument = Argument.objects.select_for_update().get(pk=argument_id)
            if argument.current_step == step and not argument.is_complete:
                argument.pending_proposal = {
                    "field": proposal["field"],
                    "value": proposal["value"],
                    "rationale": proposal.get("rationale") or "",
                }
                argument.save(update_fields=["pending_proposal", "updated_at"])
        reply = CoachMessage.objects.create(
            argument_id=argument_id,
            role=Role.ASSISTANT,
            text=guarded_result["assistantText"],
            step=step,
        )
        CoachTurn.objects.create(
            argument_id=argument_id,
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
