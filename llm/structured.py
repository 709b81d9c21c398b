"""One structured call, async and sync, sharing everything but the await."""

from __future__ import annotations

import time
from typing import Any, TypeVar

from anthropic import Anthropic, AsyncAnthropic
from pydantic import BaseModel

from llm.hashing import request_hash
from llm.pricing import PriceTable
from llm.reply import StructuredReply, finish_reply
from llm.request import request_params
from llm.sdk_errors import CALL_ERRORS, call_failed

__all__ = ["acall_structured", "call_structured", "prepare_call"]

M = TypeVar("M", bound=BaseModel)


def prepare_call(
    *,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[BaseModel],
    max_tokens: int,
    cache_system: bool,
) -> tuple[dict[str, Any], str]:
    """The SDK keyword arguments and the request hash of one call."""
    params = request_params(
        model=model,
        system=system,
        messages=messages,
        output_model=output_model,
        max_tokens=max_tokens,
        cache_system=cache_system,
    )
    hash_ = request_hash(
        model=model,
        system=system,
        messages=messages,
        output_model=output_model,
        max_tokens=max_tokens,
    )
    return params, hash_


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


async def acall_structured(
    *,
    client: AsyncAnthropic,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[M],
    max_tokens: int,
    prices: PriceTable,
    cache_system: bool = True,
) -> StructuredReply[M]:
    """Ask for one JSON reply validated by ``output_model``.

    Safe to run many at once on one client (``asyncio.gather``). Raises
    LLMError: call_failed / validation_failed / truncated.
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
    try:
        message = await client.messages.create(**params)
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    return finish_reply(
        message=message,
        output_model=output_model,
        model=model,
        prices=prices,
        hash_=hash_,
        latency_ms=_elapsed_ms(started),
        streamed=False,
        request_id=getattr(message, "_request_id", None),
    )


def call_structured(
    *,
    client: Anthropic,
    model: str,
    system: str,
    messages: list[dict[str, Any]],
    output_model: type[M],
    max_tokens: int,
    prices: PriceTable,
    cache_system: bool = True,
) -> StructuredReply[M]:
    """The sync twin of :func:`acall_structured` (same arguments, same errors)."""
    params, hash_ = prepare_call(
        model=model,
        system=system,
        messages=messages,
        output_model=output_model,
        max_tokens=max_tokens,
        cache_system=cache_system,
    )
    started = time.perf_counter()
    try:
        message = client.messages.create(**params)
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    return finish_reply(
        message=message,
        output_model=output_model,
        model=model,
        prices=prices,
        hash_=hash_,
        latency_ms=_elapsed_ms(started),
        streamed=False,
        request_id=getattr(message, "_request_id", None),
    )
