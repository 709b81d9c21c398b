"""A finished reply: the validated object plus what it cost and how long it took."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from llm.errors import LLMError
from llm.pricing import cost_usd
from llm.request import LLMRequest
from llm.usage import Usage
from untrusted import clean_text

__all__ = ["StructuredReply", "finish_reply", "message_text"]

M = TypeVar("M", bound=BaseModel)

# Stop reasons meaning "the model ran out of room", so the JSON is cut short.
_TRUNCATING = frozenset({"max_tokens", "model_context_window_exceeded"})

# A JSON escape that decodes to text no database stores: NUL or a surrogate.
_UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


def _clean_strings(value: Any) -> Any:
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [_clean_strings(item) for item in value]
    if isinstance(value, dict):
        return {clean_text(key): _clean_strings(item) for key, item in value.items()}
    return value


def storable_text(text: str) -> str:
    """The model's text made safe to store, in both forms it is stored in.

    Raw NUL characters and unpaired surrogates go (``untrusted.clean_text``),
    and when the reply is JSON whose strings decode to them (``\\u0000``, a
    lone ``\\ud800``), it is written again without them: PostgreSQL refuses NUL
    in text and in jsonb, and no database encodes a lone surrogate. Whatever
    the model sends, nothing parsed from its reply, nor the raw reply kept for
    instructors and replays, can then fail a database write.
    """
    text = clean_text(text)
    if _UNSTORABLE_ESCAPE.search(text) is None:
        return text
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return text  # not JSON: validation says so; the escapes are harmless ASCII
    return json.dumps(_clean_strings(data), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class StructuredReply(Generic[M]):
    """A validated structured reply.

    ``model`` is the model the API says answered; ``latency_ms`` runs from the
    call to the last byte, SDK retries included; ``first_text_ms`` (streams
    only) is when the first visible text was yielded. ``request_id`` is the
    API's id, worth logging for support. ``request_hash`` is what a ledger
    replays the call by; empty for a streamed reply, which is never replayed.
    """

    parsed: M
    raw_text: str
    usage: Usage
    model: str
    stop_reason: str | None
    latency_ms: float
    cost_usd: Decimal
    request_hash: str
    first_text_ms: float | None = None
    request_id: str | None = None


def message_text(message: Any) -> str | None:
    """The text blocks of an SDK ``Message`` joined, or None when it has none."""
    texts = [block.text for block in message.content if getattr(block, "type", None) == "text"]
    return "".join(texts) if texts else None


def _validation_summary(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "(root)"
    return f"{error.error_count()} error(s); first at {where}: {first.get('msg', '')}"[:500]


def finish_reply(
    *,
    text: str | None,
    usage: Usage,
    stop_reason: str | None,
    answered_model: str,
    request: LLMRequest[M],
    hash_: str,
    latency_ms: float,
    streamed: bool,
    first_text_ms: float | None = None,
    request_id: str | None = None,
) -> StructuredReply[M]:
    """Turn a finished reply (its text, usage and stop reason) into a StructuredReply,
    or raise a classified LLMError.

    Order matters: a stream without stop_reason broke off; a max_tokens stop
    explains bad JSON better than the JSON error would; only then validate.
    Costs are priced by the requested model's name (``request.model``), the key
    of the price table; ``answered_model`` is the model the API says answered.
    """
    cost = cost_usd(model=request.model, usage=usage, prices=request.prices)
    if text is not None:
        text = storable_text(text)

    def failure(code: Any, detail: str) -> LLMError:
        return LLMError(code, detail, usage=usage, cost_usd=cost, raw_text=text)

    if stop_reason is None and streamed:
        raise failure("stream_failed", "stream ended without a stop_reason (connection cut?)")
    if stop_reason in _TRUNCATING:
        raise failure("truncated", f"stop_reason={stop_reason} after {usage.output_tokens} tokens")
    if stop_reason == "refusal":
        raise failure("validation_failed", "the model refused (stop_reason=refusal)")
    if text is None:
        raise failure("validation_failed", "the reply has no text block")
    try:
        parsed = request.output_model.model_validate_json(text)
    except ValidationError as error:
        raise failure("validation_failed", _validation_summary(error)) from error
    return StructuredReply(
        parsed=parsed,
        raw_text=text,
        usage=usage,
        model=answered_model,
        stop_reason=stop_reason,
        latency_ms=latency_ms,
        cost_usd=cost,
        request_hash=hash_,
        first_text_ms=first_text_ms,
        request_id=request_id,
    )
