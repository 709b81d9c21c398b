"""One structured call, async and sync, sharing everything but the await.

Both take one :class:`~llm.request.LLMRequest`. Both bound the whole call,
retries included, by its ``deadline_s`` and the reply's text by its
``max_reply_chars`` (see llm/errors.py: ``deadline_exceeded``,
``too_large``). The async call runs under ``asyncio.timeout``, so the deadline
is exact. The sync twin (Celery tasks, trial threads) cannot cancel a blocking
read, so it bounds each step instead: a middleware, run by the SDK before
every attempt, refuses to start one past the deadline and gives it only the
time left as its timeout; the body is read here, the clock and the size
checked after every chunk. A sync call so ends at most one retry pause after
the deadline, and a huge body at the byte limit.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, TypeVar

import anthropic
import httpx2
from anthropic import Anthropic, AsyncAnthropic
from pydantic import BaseModel

from llm.errors import LLMError
from llm.hashing import request_hash
from llm.pricing import cost_usd
from llm.reply import StructuredReply, finish_reply, message_text
from llm.request import DEFAULT_DEADLINE_S, DEFAULT_MAX_REPLY_CHARS, LLMRequest, request_params
from llm.sdk_errors import CALL_ERRORS, call_failed
from llm.usage import Usage

__all__ = [
    "DEFAULT_DEADLINE_S",
    "DEFAULT_MAX_REPLY_CHARS",
    "acall_structured",
    "body_byte_limit",
    "call_structured",
    "deadline_error",
    "prepare_call",
    "too_large_error",
]

M = TypeVar("M", bound=BaseModel)


def prepare_call(request: LLMRequest[Any]) -> tuple[dict[str, Any], str]:
    """The SDK keyword arguments and the request hash of one call."""
    hash_ = request_hash(
        model=request.model,
        system=request.system,
        messages=request.messages,
        output_model=request.output_model,
        max_tokens=request.max_tokens,
    )
    return request_params(request), hash_


def deadline_error(deadline_s: float, **billed: Any) -> LLMError:
    return LLMError("deadline_exceeded", f"no complete reply within {deadline_s:g} s", **billed)


def too_large_error(max_reply_chars: int, **billed: Any) -> LLMError:
    return LLMError("too_large", f"the reply passed {max_reply_chars} characters", **billed)


def body_byte_limit(max_reply_chars: int) -> int:
    """The most bytes a non-streamed body may have for a reply of ``max_reply_chars``.

    A character takes at most 12 bytes as JSON (an escaped surrogate pair);
    64 KiB more covers the envelope (ids, usage, content block).
    """
    return max_reply_chars * 12 + 65_536


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _reply(
    *,
    message: Any,
    request: LLMRequest[M],
    hash_: str,
    started: float,
    request_id: str | None,
) -> StructuredReply[M]:
    text = message_text(message)
    limit = request.max_reply_chars
    if text is not None and len(text) > limit:
        usage = Usage.from_sdk(message.usage)
        raise too_large_error(
            limit,
            usage=usage,
            cost_usd=cost_usd(model=request.model, usage=usage, prices=request.prices),
            raw_text=text[:limit],
        )
    return finish_reply(
        text=text,
        usage=Usage.from_sdk(message.usage),
        stop_reason=message.stop_reason,
        answered_model=message.model,
        request=request,
        hash_=hash_,
        latency_ms=_elapsed_ms(started),
        streamed=False,
        request_id=request_id,
    )


async def acall_structured(*, client: AsyncAnthropic, request: LLMRequest[M]) -> StructuredReply[M]:
    """Ask for one JSON reply validated by ``request.output_model``.

    Safe to run many at once on one client (``asyncio.gather``). Raises
    LLMError: call_failed / validation_failed / truncated / too_large /
    deadline_exceeded.
    """
    params, hash_ = prepare_call(request)
    deadline_s = request.deadline_s
    started = time.perf_counter()
    try:
        async with asyncio.timeout(deadline_s):
            message = await client.messages.create(**params)
    except TimeoutError as exc:
        raise deadline_error(deadline_s) from exc
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    return _reply(
        message=message,
        request=request,
        hash_=hash_,
        started=started,
        request_id=getattr(message, "_request_id", None),
    )


def _attempt_timeout(client: Anthropic, deadline_s: float) -> float:
    """The client's per-read timeout, but never longer than the whole call may take."""
    configured = client.timeout
    if isinstance(configured, httpx2.Timeout):
        configured = configured.read
    return deadline_s if configured is None else min(float(configured), deadline_s)


class _DeadlinePassed(Exception):
    """Raised by the deadline middleware; the SDK lets a middleware's own error through."""


def _deadline_middleware(*, deadline: float, attempt_timeout: float) -> Any:
    """Before each attempt (retries included): stop past the deadline, else cap its timeout."""

    def handle(request: Any, call_next: Any) -> Any:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _DeadlinePassed
        return call_next(request.copy(timeout=min(attempt_timeout, remaining)))

    return handle


def call_structured(*, client: Anthropic, request: LLMRequest[M]) -> StructuredReply[M]:
    """The sync twin of :func:`acall_structured` (same arguments, same errors).

    The SDK still retries 429/5xx/connection errors before the body starts;
    the body is read here, chunk by chunk, so the deadline and the size limit
    apply to it (see the module docstring).
    """
    params, hash_ = prepare_call(request)
    deadline_s = request.deadline_s
    started = time.perf_counter()
    deadline = time.monotonic() + deadline_s
    max_reply_chars = request.max_reply_chars
    limit = body_byte_limit(max_reply_chars)
    guarded = client.with_middleware(
        _deadline_middleware(
            deadline=deadline, attempt_timeout=_attempt_timeout(client, deadline_s)
        )
    )
    try:
        with guarded.messages.with_streaming_response.create(**params) as response:
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limit:
                    raise too_large_error(max_reply_chars)
                if time.monotonic() > deadline:
                    raise deadline_error(deadline_s)
                chunks.append(chunk)
            request_id = response.request_id
    except _DeadlinePassed as exc:
        raise deadline_error(deadline_s) from exc
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    try:
        message = anthropic.types.Message.construct(**json.loads(b"".join(chunks)))
    except (ValueError, TypeError, RecursionError) as exc:
        raise LLMError("call_failed", "the API's reply is not a JSON message") from exc
    return _reply(
        message=message, request=request, hash_=hash_, started=started, request_id=request_id
    )
