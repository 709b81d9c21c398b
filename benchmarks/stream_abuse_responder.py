"""What the fake Anthropic server answers in bench_stream_abuse.

A student whose message contains ``MISBEHAVE`` gets a misbehaving model: a
1 MB ``assistantText`` in 12-character pieces (about 83,000 SSE events),
the stream that once froze the server. Everyone else gets the
ordinary coach reply of bench_coach, streamed in 12-character pieces 20 ms
apart, so twenty students' streams overlap for a while as real ones do.
"""

from __future__ import annotations

import json
from typing import Any

from benchmarks.coach_responder import REPLY
from tests.fakes.anthropic_wire import Reply

__all__ = ["BAD_REPLY_CHARS", "TRIGGER", "respond"]

TRIGGER = "MISBEHAVE"
BAD_REPLY_CHARS = 1_000_000


def respond(body: dict[str, Any]) -> Reply:
    if TRIGGER in json.dumps(body.get("messages", [])):
        return Reply.huge(BAD_REPLY_CHARS, step="claim", chunk_chars=12)
    return Reply.json(REPLY, chunk_chars=12, chunk_delay_ms=20)
