"""Stream one structured reply, surfacing one string field as it grows.

The coach shows the student ``assistantText`` while the model is still
writing the rest of its JSON; the final, validated object arrives last.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from anthropic import AsyncAnthropic
from pydantic import BaseModel

from llm.errors import LLMError
from llm.partial_json import partial_json_string_field
from llm.pricing import PriceTable, cost_usd
from llm.reply import StructuredReply, finish_reply
from llm.sdk_errors import CALL_ERRORS, STREAM_ERRORS, call_failed, stream_failed
from llm.structured import prepare_call
from llm.usage import Usage

__all__ = ["StreamDone", "TextDelta", "astream_structured"]

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class TextDelta:
    """The text field so far (``text``) and what this step added to it (``added``)."""

    text: str
    added: str


@dataclass(frozen=True, slots=True)
class StreamDone(Generic[M]):
    """The last item of a stream: the validated reply."""

    reply: StructuredReply[M]


def _snapshot(stream: Any) -> Any | None:
    """The SDK's accumulated message, or None before ``message_start`` arrived."""
    try:
        return stream.current_message_snapshot
    except AssertionError:
        return None


def _partial_text(snapshot: Any | None) -> str | None:
    if snapshot is None:
        return None
    texts = [block.text for block in snapshot.content if getattr(block, "type", None) == "text"]
    return "".join(texts) if texts else None


async def astream_structured(
    *,
    client: AsyncAnthropic,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[M],
    max_tokens: int,
    prices: PriceTable,
    cache_system: bool = True,
    text_field: str = "assistantText",
) -> AsyncIterator[TextDelta | StreamDone[M]]:
    """Yield TextDelta each time top-level string ``text_field`` grows, then StreamDone.

    Raises LLMError: call_failed (the request failed before streaming, after
    the SDK's retries), stream_failed (the stream broke off), truncated,
    validation_failed. Closing the generator early (e.g. the browser went
    away) closes the HTTP stream.
    """
    params, hash_ = prepare_call(
        model=model,
        system=system,
        messages=messages,
        output_model=output_model,
        max_tokens=max_tokens,
        cache_system=cache_system,
    )
    started = time.perf_counter()
    shown = ""
    first_text_ms: float | None = None
    async with contextlib.AsyncExitStack() as stack:
        try:
            stream = await stack.enter_async_context(client.messages.stream(**params))
        except CALL_ERRORS as exc:
            raise call_failed(exc) from exc
        try:
            async for event in stream:
                if event.type != "text":
                    continue
                value = partial_json_string_field(event.snapshot, text_field)
                if value is not None and len(value) > len(shown):
                    if first_text_ms is None:
                        first_text_ms = (time.perf_counter() - started) * 1000.0
                    added, shown = value[len(shown) :], value
                    yield TextDelta(text=value, added=added)
        except STREAM_ERRORS as exc:
            snapshot = _snapshot(stream)
            usage = Usage.from_sdk(snapshot.usage) if snapshot is not None else None
            cost = cost_usd(model=model, usage=usage, prices=prices) if usage is not None else None
            raise stream_failed(
                exc, usage=usage, cost=cost, raw_text=_partial_text(snapshot)
            ) from exc
        message = _snapshot(stream)
        if message is None:
            raise LLMError("stream_failed", "the stream ended before message_start")
        request_id = stream.request_id
    yield StreamDone(
        reply=finish_reply(
            message=message,
            output_model=output_model,
            model=model,
            prices=prices,
            hash_=hash_,
            latency_ms=(time.perf_counter() - started) * 1000.0,
            streamed=True,
            first_text_ms=first_text_ms,
            request_id=request_id,
        )
    )
