"""Client factories: the one place an SDK client is built.

The SDK reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment;
tests point the base URL at the fake server in tests/fakes.
"""

from __future__ import annotations

import os

from anthropic import Anthropic, AsyncAnthropic, DefaultAioHttpClient

from llm.errors import LLMError

__all__ = ["api_key_configured", "make_async_client", "make_client"]


def api_key_configured() -> bool:
    """True when ANTHROPIC_API_KEY is set and non-empty (the offline coach checks this)."""
    return bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())


def _require_key() -> None:
    if not api_key_configured():
        raise LLMError("unavailable", "ANTHROPIC_API_KEY is not set")


def make_async_client(*, timeout: float, max_retries: int) -> AsyncAnthropic:
    """An AsyncAnthropic client; create one per event loop and reuse it.

    ``timeout`` (seconds) bounds each connect/read/write, so for a stream it is
    the longest silence tolerated between chunks, not the whole reply.
    ``max_retries`` is the SDK's retry budget for 408/409/429/5xx/connection
    errors (honouring ``retry-after``). Raises LLMError("unavailable") without
    a key.

    The HTTP transport is aiohttp (the SDK's ``aiohttp`` extra): its C parser
    reads a streamed reply's chunks for less CPU than the default httpx
    transport (a coach turn: about 12-15 % less server CPU, docs/coach.md).
    The SDK's retries, timeouts and error mapping are the same with either.
    """
    _require_key()
    return AsyncAnthropic(
        timeout=timeout, max_retries=max_retries, http_client=DefaultAioHttpClient(timeout=timeout)
    )


def make_client(*, timeout: float, max_retries: int) -> Anthropic:
    """The sync twin of :func:`make_async_client`, for Celery tasks and commands."""
    _require_key()
    return Anthropic(timeout=timeout, max_retries=max_retries)
