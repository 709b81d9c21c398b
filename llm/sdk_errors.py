"""Map the SDK's and its HTTP client's exceptions onto LLMError codes."""

from __future__ import annotations

from decimal import Decimal

import anthropic
import httpx2

from llm.errors import LLMError
from llm.usage import Usage

__all__ = ["CALL_ERRORS", "STREAM_ERRORS", "call_failed", "stream_failed"]

# Raised by the request itself, after the SDK's retries are spent.
CALL_ERRORS: tuple[type[Exception], ...] = (anthropic.AnthropicError, httpx2.HTTPError)
# Raised while reading an open stream: the SDK turns `event: error` into an
# APIStatusError, but a dropped or stalled connection surfaces as httpx2's own
# RemoteProtocolError / ReadError / ReadTimeout, unwrapped.
STREAM_ERRORS: tuple[type[Exception], ...] = (anthropic.AnthropicError, httpx2.HTTPError)


def _describe(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"[:500]


def call_failed(exc: Exception) -> LLMError:
    """LLMError("call_failed") carrying the HTTP status when there was one."""
    status = exc.status_code if isinstance(exc, anthropic.APIStatusError) else None
    return LLMError("call_failed", _describe(exc), status_code=status)


def stream_failed(
    exc: Exception, *, usage: Usage | None, cost: Decimal | None, raw_text: str | None
) -> LLMError:
    """LLMError("stream_failed") with what the stream had delivered (and billed) so far."""
    return LLMError("stream_failed", _describe(exc), usage=usage, cost_usd=cost, raw_text=raw_text)
