"""The one exception llm/ raises, so callers never import `anthropic`."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from llm.usage import Usage
from untrusted import clean_text

__all__ = ["SERVICE_FAILURES", "ErrorCode", "LLMError"]

ErrorCode = Literal[
    "unavailable",
    "call_failed",
    "stream_failed",
    "validation_failed",
    "truncated",
    "too_large",
    "deadline_exceeded",
]
"""Why a call produced no usable reply.

- ``unavailable``: no ANTHROPIC_API_KEY; nothing was sent.
- ``call_failed``: HTTP/API error after the SDK's bounded retries, timeout,
  connection error — before any reply started.
- ``stream_failed``: a stream started but broke off (no stop_reason,
  ``event: error``, connection cut or read timeout mid-way).
- ``validation_failed``: the reply is not JSON, fails the pydantic model,
  has no text, or the model refused.
- ``truncated``: the model hit max_tokens (or its context window) first.
- ``too_large``: the reply grew past ``max_reply_chars`` (or its body past the
  matching byte limit); it was cut off there, unread. No honest reply comes
  near the limit: this is a misbehaving model, proxy or server.
- ``deadline_exceeded``: the whole call — retries, waiting and streaming
  included — took longer than ``deadline_s``, e.g. a stream that trickles a
  character at a time and so never trips the per-read timeout.
"""


#: Codes where the service, not the model, failed: nothing usable came back
#: (overloaded, rate limited, unreachable, timed out, cut off), so asking again
#: later may well work; a malformed or truncated reply would only repeat itself.
SERVICE_FAILURES = frozenset({"call_failed", "stream_failed", "deadline_exceeded"})


class LLMError(Exception):
    """A failed model call, classified by :data:`ErrorCode`.

    ``usage`` and ``cost_usd`` say what was billed before the failure when the
    reply got far enough to report it (``validation_failed``, ``truncated``,
    usually ``stream_failed``); ledgers should record them even on failure.
    ``raw_text`` is the model's text so far, for the instructor's eyes.
    ``status_code`` is the HTTP status behind a ``call_failed``, if any.
    """

    def __init__(
        self,
        code: ErrorCode,
        detail: str = "",
        *,
        usage: Usage | None = None,
        cost_usd: Decimal | None = None,
        raw_text: str | None = None,
        status_code: int | None = None,
    ) -> None:
        # Both end up in the database (call logs, transcripts): keep them storable.
        detail = clean_text(detail)
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code: ErrorCode = code
        self.detail = detail
        self.usage = usage
        self.cost_usd = cost_usd
        self.raw_text = None if raw_text is None else clean_text(raw_text)
        self.status_code = status_code

    @property
    def is_service_failure(self) -> bool:
        """The AI service did not answer usefully (see :data:`SERVICE_FAILURES`)."""
        return self.code in SERVICE_FAILURES
