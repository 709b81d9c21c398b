"""The demo inquiry's model: a minimal Messages API endpoint on loopback, answering from a script.

The demo (inquiries/demo.py) runs the real pipeline, the SDK and the ledger
included, so its agents need an endpoint to talk to. This is the smallest
one that serves: ``POST /v1/messages`` is answered (not streamed) with the
JSON that ``responder(body)`` returns as the reply's text. Any other route,
or a responder that fails, gets an error the SDK is told not to retry, so
the run fails at once instead of waiting. Nothing leaves the machine.

It is the product's own, not the tests' fake server, so a site deployed
without ``tests/`` can load the demo. No Django.

Token counts are estimated (about four characters a token) and a system
prompt marked for caching is written to the cache the first time and read
from it afterwards, as the API bills it, so the demo's ledger and cost read
like a real run's.
"""

from __future__ import annotations

import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from llm.loopback import LoopbackHandler, LoopbackServer, PromptCache, estimate_tokens

__all__ = ["Responder", "ScriptedModelServer", "estimate_tokens"]

logger = logging.getLogger(__name__)

# A request's JSON body in, the reply's JSON (the object the output schema asks for) out.
Responder = Callable[[dict[str, Any]], Any]

MESSAGES_PATH = "/v1/messages"


class ScriptedModelServer(LoopbackServer):
    """Serves ``responder`` on 127.0.0.1 (a free port) from a daemon thread until stopped."""

    thread_name = "demo-model"

    def __init__(self, responder: Responder) -> None:
        super().__init__(_Handler)
        self.responder = responder
        self._prompt_cache = PromptCache()
        self._ids = itertools.count(1)

    def next_id(self, prefix: str) -> str:
        return f"{prefix}_demo_{next(self._ids)}"

    def message(self, body: dict[str, Any]) -> dict[str, Any]:
        """The Messages API's answer to one request: the responder's JSON as its text."""
        text = json.dumps(self.responder(body))
        return {
            "id": self.next_id("msg"),
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": self._prompt_cache.usage(body, text),
        }


class _Handler(LoopbackHandler):
    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._error(404, "not_found_error", f"no route GET {self.path}")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        if self.path.split("?", 1)[0] != MESSAGES_PATH:
            return self._error(404, "not_found_error", f"no route POST {self.path}")
        try:
            reply = self.server.owner.message(json.loads(raw))
        except Exception:
            logger.exception("the demo's scripted model could not answer")
            return self._error(500, "api_error", "the demo's scripted model could not answer")
        self._send(200, reply)

    def _error(self, status: int, kind: str, message: str) -> None:
        body = {"type": "error", "error": {"type": kind, "message": message}}
        self._send(status, body, {"x-should-retry": "false"})

    def _send(
        self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        self.send_json(
            status, body, {"request-id": self.server.owner.next_id("req"), **(headers or {})}
        )
