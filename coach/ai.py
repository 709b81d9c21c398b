"""The AI coach's side of a turn: stream one `CoachAIResult` through llm/.

One AsyncAnthropic client per event loop is kept and reused, so turns share
its connection pool (llm/ advises one client per loop). The key and base URL
are part of the cache key because the SDK reads them from the environment at
construction: a changed environment (tests, a rotated key) gets a new client.

A kept client is closed when its loop shuts down: it is held by an async
generator, and ``loop.shutdown_asyncgens()`` (which ``asyncio.run``, uvicorn
and asgiref's per-call loops run before closing) closes every open one. An
aiohttp session left open would otherwise warn when collected.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

from django.conf import settings

from coach.prompts import MAX_TOKENS
from coach.schemas import CoachAIResult
from llm import (
    LLMRequest,
    StreamDone,
    TextDelta,
    Usage,
    astream_structured,
    cost_usd,
    make_async_client,
)

__all__ = ["stream_coach_reply", "turn_reserve_usd"]

# For the quota, before a turn: a long prompt (system, history, draft) and a full reply.
RESERVED_INPUT_TOKENS = 4000

_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple, Any]] = (
    weakref.WeakKeyDictionary()
)


async def _held(client: Any) -> AsyncIterator[Any]:
    """Hold ``client`` open until the generator is closed (by its loop's shutdown)."""
    try:
        yield client
    finally:
        await client.close()


async def _client() -> Any:
    key = (
        os.environ.get("ANTHROPIC_API_KEY", ""),
        os.environ.get("ANTHROPIC_BASE_URL", ""),
        settings.LLM_TIMEOUT_SECONDS,
        settings.LLM_MAX_RETRIES,
    )
    per_loop = _clients.setdefault(asyncio.get_running_loop(), {})
    if key not in per_loop:
        for _old, holder in per_loop.values():  # a changed environment retires the old client
            await holder.aclose()
        per_loop.clear()
        client = make_async_client(
            timeout=settings.LLM_TIMEOUT_SECONDS, max_retries=settings.LLM_MAX_RETRIES
        )
        holder = _held(client)
        await anext(holder)  # started: the loop now knows it and will close it
        per_loop[key] = (client, holder)
    return per_loop[key][0]


def turn_reserve_usd() -> Decimal:
    """The most one AI turn is expected to cost; it must fit in what is left of the quota."""
    return cost_usd(
        model=settings.COACH_MODEL,
        usage=Usage(input_tokens=RESERVED_INPUT_TOKENS, output_tokens=MAX_TOKENS),
        prices=settings.LLM_PRICES,
    )


async def stream_coach_reply(
    *, system: str, messages: list[dict[str, Any]]
) -> AsyncIterator[TextDelta | StreamDone[CoachAIResult]]:
    """TextDelta as `assistantText` grows, then StreamDone; raises llm.LLMError."""
    request = LLMRequest(
        model=settings.COACH_MODEL,
        system=system,
        messages=messages,
        output_model=CoachAIResult,
        max_tokens=MAX_TOKENS,
        prices=settings.LLM_PRICES,
        deadline_s=settings.LLM_DEADLINE_SECONDS,
        max_reply_chars=settings.LLM_MAX_REPLY_CHARS,
    )
    async for item in astream_structured(
        client=await _client(), request=request, text_field="assistantText"
    ):
        yield item
