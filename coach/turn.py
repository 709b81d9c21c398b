"""A coach turn, as an async generator of NDJSON-ready dicts.

The endpoint forwards what this yields, one JSON object per line:

- ``{"type": "stored", "user_message_id": <id>}`` first, once the student's
  message is stored (not for an empty message). A page whose turn fails
  sends this id back as ``retry_of`` when the student retries, and the
  server reuses the message rather than storing the words twice;
- ``{"type": "delta", "text": <characters to append>}`` while the reply
  streams: only what ``assistantText`` gained since the previous delta, so a
  reply of n characters costs O(n) bytes on the wire, not O(n²). The page
  appends it to the bubble. Deltas are paced: at most one per
  ``DELTA_INTERVAL_S``, a delta that has to wait absorbing the ones after it;
  the result line carries the whole text, which the page shows last;
- then ``{"type": "result", "result": <guarded CoachAIResult>, "message_id": <id>}``,
- or one ``{"error": <code>, "detail": <text>, "user_message_id": <id|null>}``
  instead of the result:
  ``coach_step_mismatch`` (the page shows a stale step), ``coach_stream_failed``
  (the call failed after retries, or its stream broke off),
  ``coach_validation_failed`` (the reply does not parse, validate or survive
  the schema guard), ``coach_empty_response`` (empty ``assistantText``),
  ``coach_reply_too_long`` (the reply passed ``LLM_MAX_REPLY_CHARS``: it was
  cut off there), ``coach_timed_out`` (no complete reply within
  ``LLM_DEADLINE_SECONDS``).

Order of work: store the student's message (before anything can fail) and
load the draft and transcript, in one transaction (`begin_turn`, which the
endpoint calls before it starts the stream), check the step, detect intent,
ask the coach (the AI through llm/, or the offline coach when no API key is
set), guard the reply, then save the coach's message, the turn record and
any new proposal in one transaction (in the request's thread, on the connection
`begin_turn` used; Django gives it back when the response is closed, once its
last line is sent). Every failure also leaves a CoachTurn
with its error code; none changes the draft. An empty message asks the coach
to open the current step (the page does this after the student accepts a
proposal).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.utils.translation import gettext

from coach.ai import stream_coach_reply
from coach.draft import coach_kind, offered_proposal
from coach.guards import GuardContext, GuardRejected, apply_guards
from coach.intents import classify, is_confirmation, is_rewrite_request, is_write_request
from coach.offline import OfflineTurn, offline_reply, split_for_stream
from coach.pacing import pace_deltas
from coach.prompts import TurnFacts, build_messages, system_prompt
from coach.schemas import CoachAIResult
from coach.steps import STEPS
from coach.turn_store import Accounting, TurnState, record_failure, record_success
from llm import LLMError, StreamDone, TextDelta

__all__ = ["DELTA_INTERVAL_S", "ERROR_CODES", "run_turn"]

logger = logging.getLogger(__name__)

# At most one delta line per 50 ms (20 repaints a second): smooth to read,
# and a fast model's dozens of tiny events cost the server a few lines, not
# one JSON line, body chunk and socket write each.
DELTA_INTERVAL_S = 0.05

ERROR_CODES = (
    "coach_stream_failed",
    "coach_validation_failed",
    "coach_empty_response",
    "coach_step_mismatch",
    "coach_reply_too_long",
    "coach_timed_out",
)

# llm/ error codes -> the endpoint's. A cut-off or truncated reply is unusable
# JSON; a refused or failed call is a failed stream from the student's view.
_LLM_ERRORS = {
    "unavailable": "coach_stream_failed",
    "call_failed": "coach_stream_failed",
    "stream_failed": "coach_stream_failed",
    "validation_failed": "coach_validation_failed",
    "truncated": "coach_validation_failed",
    "too_large": "coach_reply_too_long",
    "deadline_exceeded": "coach_timed_out",
}


class TurnFailed(Exception):
    """A turn that produced no usable reply; `code` is the NDJSON error code."""

    def __init__(self, code: str, detail: str, *, accounting: Accounting, raw: Any = None) -> None:
        super().__init__(f"{code}: {detail}")
        self.code, self.detail, self.accounting, self.raw = code, detail, accounting, raw


@dataclass(frozen=True, slots=True)
class _Reply:
    """The coach's unguarded answer and what producing it cost."""

    result: CoachAIResult
    accounting: Accounting


def _error(code: str, detail: str, user_message_id: int | None) -> dict[str, Any]:
    return {"error": code, "detail": detail, "user_message_id": user_message_id}


def _page_detail(code: str, detail: str) -> str:
    """What the page is sent about a failed turn: a plain sentence, never internals.

    The technical detail (the SDK's message, an exception's class, a guard's
    reason) goes to the turn's record, for instructors. A step mismatch's
    detail names only the two steps, so it goes as it is.
    """
    if code == "coach_step_mismatch":
        return detail
    return gettext("The coach could not answer this time. Your message is kept: try again.")


def _draft_texts(argument: Any) -> dict[str, str]:
    """Every step's text so far, by step id."""
    return {step.id: getattr(argument, step.field) for step in STEPS}


def _context(state: TurnState, message: str) -> GuardContext:
    """What the guards (and, through them, both coaches) know about this turn.

    The pending proposal is the one the student may still accept
    (`coach.draft.offered_proposal`): one left from before the assignment
    became hints only is not re-attached, shown or sent to the model.
    """
    argument = state.argument
    policy, step = state.policy, argument.current_step
    intent = classify(message, step)
    return GuardContext(
        proposals_allowed=policy.proposals,
        criteria_check=((lambda text: policy.unmet(step, text)) if policy.criteria_check else None),
        current_step=argument.current_step,
        draft_text=argument.current_text(),
        is_first_turn=state.is_first_turn,
        is_confirmation=bool(message) and is_confirmation(message),
        is_rewrite_request=bool(message)
        and (is_rewrite_request(message) or is_write_request(message)),
        pending_proposal=offered_proposal(argument=argument, policy=policy),
        language=argument.language,
        page_language=state.page_language,
        question_topics=intent.topics if intent.kind == "question" else (),
        rejected_value=state.rejected_value,
        draft=_draft_texts(argument),
        complete=argument.completed_at is not None,
    )


async def _ai_reply(
    state: TurnState, message: str, context: GuardContext, out: list[_Reply]
) -> AsyncIterator[dict[str, Any]]:
    """Stream the AI coach's reply: yield delta lines, leave the reply in `out`."""
    argument = state.argument
    facts = TurnFacts(
        title=argument.title,
        language=argument.language,
        current_step=argument.current_step,
        draft=_draft_texts(argument),
        pending_proposal=context.pending_proposal,
        is_first_turn=context.is_first_turn,
        is_confirmation=context.is_confirmation,
        is_rewrite_request=context.is_rewrite_request,
        proposals_allowed=context.proposals_allowed,
        required_for_this_step=tuple(state.policy.requirements.get(argument.current_step, [])),
        question_topics=context.question_topics,
        asks_to_write=bool(message) and is_write_request(message),
        is_complete=context.complete,
    )
    messages = build_messages(history=state.history, message=message, facts=facts)
    try:
        async for item in stream_coach_reply(
            system=system_prompt(argument.language, page_language=state.page_language),
            messages=messages,
        ):
            if isinstance(item, TextDelta):
                yield {"type": "delta", "text": item.added}
            elif isinstance(item, StreamDone):
                reply = item.reply
                out.append(
                    _Reply(
                        result=reply.parsed,
                        accounting=Accounting(
                            model=reply.model,
                            usage=reply.usage,
                            cost_usd=reply.cost_usd,
                            latency_ms=reply.latency_ms,
                        ),
                    )
                )
    except LLMError as error:
        accounting = Accounting(usage=error.usage, cost_usd=error.cost_usd)
        raw = {"raw_text": error.raw_text} if error.raw_text is not None else None
        raise TurnFailed(
            _LLM_ERRORS.get(error.code, "coach_stream_failed"),
            error.detail or error.code,
            accounting=accounting,
            raw=raw,
        ) from error


async def _offline_reply(
    state: TurnState, message: str, context: GuardContext, out: list[_Reply]
) -> AsyncIterator[dict[str, Any]]:
    """The offline coach's reply, "streamed" a sentence at a time like the AI's."""
    argument = state.argument
    # Off the event loop: the first reply of a process loads the word lists (about a
    # second), and no other student's stream should wait for that.
    result = await sync_to_async(offline_reply, thread_sensitive=False)(
        OfflineTurn(
            step=argument.current_step,
            language=argument.language,
            message=message,
            draft_text=argument.current_text(),
            step_messages=state.step_messages,
            pending_proposal=context.pending_proposal,
            draft=_draft_texts(argument),
            previous_reply=next(
                (text for role, text in reversed(state.history) if role == "assistant"), ""
            ),
            proposals_allowed=context.proposals_allowed,
            criteria_check=context.criteria_check,
            rejected_value=context.rejected_value,
            title=argument.title,
            page_language=state.page_language,
            complete=context.complete,
        )
    )
    shown = 0
    for prefix in split_for_stream(result.assistantText):
        if len(prefix) > shown:
            yield {"type": "delta", "text": prefix[shown:]}
            shown = len(prefix)
    out.append(_Reply(result=result, accounting=Accounting(model="offline")))


async def run_turn(*, state: TurnState, message: str, step: str) -> AsyncIterator[dict[str, Any]]:
    """One coach turn, once `begin_turn` has stored the student's words and loaded the draft.

    `message` is the student's (stripped) words, `step` the step the page
    showed. Deltas are paced (`DELTA_INTERVAL_S`, see coach.pacing).
    """
    async for line in pace_deltas(
        _turn_lines(state, message, step), min_interval_s=DELTA_INTERVAL_S
    ):
        yield line


async def _turn_lines(state: TurnState, message: str, step: str) -> AsyncIterator[dict[str, Any]]:
    argument = state.argument
    user_message_id = state.user_message_id
    coach = coach_kind()
    if user_message_id is not None:
        yield {"type": "stored", "user_message_id": user_message_id}

    async def fail(code: str, detail: str, **extra: Any) -> dict[str, Any]:
        extra.setdefault("accounting", Accounting())
        await sync_to_async(record_failure)(
            argument_id=argument.pk,
            step=state.shown_step,
            user_message_id=user_message_id,
            coach=coach,
            error_code=code,
            detail=detail,
            **extra,
        )
        return _error(code, _page_detail(code, detail), user_message_id)

    try:
        current = argument.current_step
        if step != current:
            yield await fail(
                "coach_step_mismatch",
                f"the page shows step {step!r} but the argument is on {current!r}; reload",
            )
            return
        context = _context(state, message)
        out: list[_Reply] = []
        source = (
            _ai_reply(state, message, context, out)
            if coach == "ai"
            else _offline_reply(state, message, context, out)
        )
        async for line in source:
            yield line
        if not out:
            raise TurnFailed(
                "coach_stream_failed", "the reply ended without a result", accounting=Accounting()
            )
        reply = out[0]
        raw = reply.result.to_json()
        if not reply.result.assistantText.strip():
            yield await fail(
                "coach_empty_response",
                "the coach's reply has no assistantText",
                accounting=reply.accounting,
                raw_result=raw,
            )
            return
        try:
            guarded = apply_guards(result=reply.result, context=context)
        except GuardRejected as rejected:
            yield await fail(
                "coach_validation_failed",
                rejected.reason,
                accounting=reply.accounting,
                raw_result=raw,
                decisions=[d.to_json() for d in rejected.decisions],
            )
            return
        final = guarded.result.to_json()
        saved = await sync_to_async(record_success)(
            argument_id=argument.pk,
            step=current,
            user_message_id=user_message_id,
            coach=coach,
            raw_result=raw,
            guarded_result=final,
            decisions=[d.to_json() for d in guarded.decisions],
            accounting=reply.accounting,
        )
        yield {"type": "result", "result": final, "message_id": saved.pk}
    except TurnFailed as failed:
        yield await fail(
            failed.code, failed.detail, accounting=failed.accounting, raw_result=failed.raw
        )
    except Exception as error:  # noqa: BLE001 - the student must get an answer line
        # A bug here must not leave the page waiting on a silent stream; the
        # student's message is already saved and the draft is untouched.
        logger.exception("coach turn failed for argument %s", argument.pk)
        yield await fail("coach_stream_failed", f"internal error: {type(error).__name__}")
