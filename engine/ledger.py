"""The cost ledger: one ``LLMCall`` row per paid request, written the moment it returns.

Why a row per request hash, written outside the stage's transaction: a worker
can die after a call was paid but before its stage committed. The next
attempt rebuilds the same prompts from the same saved state, so the same
request hash; finding the row, it re-reads the stored reply instead of paying
again (:func:`replay`). Failed calls are kept too, with whatever usage they
reported, and are replayed as the same failure, so a resumed stage sees
exactly what the interrupted one saw — except a call the service never
answered (``LLMError.is_service_failure``: overloaded, unreachable, timed
out): the model said nothing there, so a resumed stage asks again, and that
attempt's outcome replaces the row (tokens and cost add up, see
:func:`record_call`). That is what lets a debate that failed because the
service was down be retried.

``Debate.cost_usd`` is kept in step with the ledger in the same transaction,
for list pages; :func:`spent_usd` is the ledger's own sum.
"""

from __future__ import annotations

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F, Q, Sum
from pydantic import BaseModel, ValidationError

from engine.models import CallStatus, Debate, LLMCall
from llm import LLMError, StructuredReply
from llm.errors import SERVICE_FAILURES

__all__ = [
    "known_hashes",
    "paid_calls",
    "record_call",
    "record_calls",
    "replay",
    "spent_usd",
]

MICRO_USD = Decimal("0.000001")


def paid_calls(*, debate_id: int, hashes: list[str]) -> dict[str, LLMCall]:
    """The ledger rows of a stage's requests worth replaying, by request hash (one query).

    A call the service never answered is left out: it is asked again.
    """
    if not hashes:
        return {}
    rows = (
        LLMCall.objects.filter(debate_id=debate_id, request_hash__in=hashes)
        .exclude(_unanswered())
        .order_by()
    )
    return {row.request_hash: row for row in rows}


def known_hashes(*, debate_id: int) -> set[str]:
    """Every request hash in the run's ledger (one query, when a run starts).

    A stage asks :func:`paid_calls` only about hashes in this set (kept up to
    date with the calls the run records): a fresh run's stages never ask.
    """
    return set(
        LLMCall.objects.filter(debate_id=debate_id)
        .order_by()
        .values_list("request_hash", flat=True)
    )


def _unanswered() -> Q:
    return Q(status=CallStatus.FAILED, error_code__in=SERVICE_FAILURES)


def record_call(
    *,
    debate_id: int,
    stage: str,
    round: int,
    persona_id: int | None,
    model: str,
    request_hash: str,
    agent: str = "",
    reply: StructuredReply | None = None,
    error: LLMError | None = None,
    latency_ms: float = 0.0,
) -> LLMCall:
    """Save one finished call (a reply or an error) and add its cost to the debate.

    If a row for the same request already exists (two attempts raced past the
    lease), that row wins and nothing is added twice.
    """
    fields = _fields(
        stage=stage,
        round=round,
        persona_id=persona_id,
        agent=agent,
        model=model,
        reply=reply,
        error=error,
        latency_ms=latency_ms,
    )
    try:
        with transaction.atomic():
            call = LLMCall.objects.create(debate_id=debate_id, request_hash=request_hash, **fields)
            _add_to_running_cost(debate_id, fields["cost_usd"])
    except IntegrityError:
        return _replace_unanswered(debate_id=debate_id, request_hash=request_hash, fields=fields)
    return call


def record_calls(*, debate_id: int, calls: list[dict]) -> list[LLMCall]:
    """Save calls that finished together (``record_call``'s keywords each), in order.

    One INSERT for all of them and one UPDATE of the running total, in one
    transaction. A request already in the ledger (an attempt that raced past
    the lease, a call the service never answered being asked again) rolls the
    batch back and each call goes through :func:`record_call`, which knows
    what to do with it.
    """
    if not calls:
        return []
    rows = []
    for call in calls:
        call = dict(call)
        request_hash = call.pop("request_hash")
        rows.append(LLMCall(debate_id=debate_id, request_hash=request_hash, **_fields(**call)))
    total = sum((row.cost_usd for row in rows), Decimal(0))
    try:
        with transaction.atomic():
            LLMCall.objects.bulk_create(rows)
            if total:
                _add_to_running_cost(debate_id, total)
    except IntegrityError:
        return [record_call(debate_id=debate_id, **call) for call in calls]
    return rows


def _add_to_running_cost(debate_id: int, amount: Decimal) -> None:
    """Add ``amount`` to the run's total in the database, where concurrent adds cannot be lost.

    Every recorded call adds to it (a stage's calls that come back together, once
    for all of them).
    """
    Debate.objects.filter(pk=debate_id).update(cost_usd=F("cost_usd") + amount)


def _fields(
    *,
    stage: str,
    round: int,
    persona_id: int | None,
    model: str,
    agent: str = "",
    reply: StructuredReply | None = None,
    error: LLMError | None = None,
    latency_ms: float = 0.0,
) -> dict:
    """A ledger row's columns for one finished call."""
    if (reply is None) == (error is None):
        raise ValueError("record_call needs exactly one of reply or error")
    usage = reply.usage if reply is not None else error.usage
    cost = reply.cost_usd if reply is not None else (error.cost_usd or Decimal(0))
    return {
        "stage": stage,
        "round": round,
        "persona_id": persona_id,
        "agent": agent[:40],
        "model": model,
        "input_tokens": usage.input_tokens if usage else 0,
        "output_tokens": usage.output_tokens if usage else 0,
        "cache_creation_input_tokens": usage.cache_creation_input_tokens if usage else 0,
        "cache_read_input_tokens": usage.cache_read_input_tokens if usage else 0,
        # Stored to the micro-dollar: the running total must equal the sum of the rows.
        "cost_usd": cost.quantize(MICRO_USD),
        "latency_ms": round_ms(reply.latency_ms if reply is not None else latency_ms),
        "status": CallStatus.OK if reply is not None else CallStatus.FAILED,
        "error_code": "" if error is None else error.code,
        "error_detail": "" if error is None else (error.detail or str(error))[:2000],
        "raw_text": (reply.raw_text if reply is not None else error.raw_text) or "",
    }


_SUMMED = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "cost_usd",
)


def _replace_unanswered(*, debate_id: int, request_hash: str, fields: dict) -> LLMCall:
    """The row already there; if the service never answered it, this attempt replaces it.

    Whatever either attempt billed is kept: tokens and cost add up.
    """
    row = LLMCall.objects.filter(debate_id=debate_id, request_hash=request_hash)
    with transaction.atomic():
        replaced = row.filter(_unanswered()).update(
            **{**fields, **{name: F(name) + fields[name] for name in _SUMMED}}
        )
        if replaced:
            _add_to_running_cost(debate_id, fields["cost_usd"])
    return row.get()


def round_ms(value: float) -> int:
    return max(0, int(value + 0.5))


def replay(call: LLMCall, *, output_model: type[BaseModel]) -> BaseModel | LLMError:
    """The stored outcome of a call: the parsed reply, or the error it ended with."""
    if call.status == CallStatus.OK:
        try:
            return output_model.model_validate_json(call.raw_text)
        except ValidationError as exc:  # only if the schema changed under the same hash
            return LLMError("validation_failed", f"stored reply no longer validates: {exc}")
    return LLMError(call.error_code or "call_failed", call.error_detail)


def spent_usd(*, debate_id: int) -> Decimal:
    total = LLMCall.objects.filter(debate_id=debate_id).aggregate(total=Sum("cost_usd"))["total"]
    return total or Decimal(0)
