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
import socket
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["Responder", "ScriptedModelServer", "estimate_tokens"]

logger = logging.getLogger(__name__)

# A request's JSON body in, the reply's JSON (the object the output schema asks for) out.
Responder = Callable[[dict[str, Any]], Any]

MESSAGES_PATH = "/v1/messages"


def estimate_tokens(text: str) -> int:
    """About four characters a token: a scripted reply has no tokenizer to ask."""
    return max(1, (len(text) + 3) // 4)


class ScriptedModelServer:
    """Serves ``responder`` on 127.0.0.1 (a free port) from a daemon thread until stopped."""

    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self._lock = threading.Lock()
        self._cached_systems: set[str] = set()
        self._ids = itertools.count(1)
        self._httpd: _HTTPServer | None = None

    def start(self) -> ScriptedModelServer:
        self._httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.scripted = self
        threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="demo-model",
            daemon=True,
        ).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "the server is not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

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
            "usage": self._usage(body, text),
        }

    def _usage(self, body: dict[str, Any], text: str) -> dict[str, int]:
        system = body.get("system") or ""
        blocks = [{"type": "text", "text": system}] if isinstance(system, str) else system
        cached = "".join(b.get("text", "") for b in blocks if b.get("cache_control"))
        plain = "".join(b.get("text", "") for b in blocks if not b.get("cache_control"))
        creation = read = 0
        if cached:
            with self._lock:
                seen = cached in self._cached_systems
                self._cached_systems.add(cached)
            if seen:
                read = estimate_tokens(cached)
            else:
                creation = estimate_tokens(cached)
        return {
            "input_tokens": estimate_tokens(plain + json.dumps(body.get("messages", []))),
            "output_tokens": estimate_tokens(text),
            "cache_creation_input_tokens": creation,
            "cache_read_input_tokens": read,
        }


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    scripted: ScriptedModelServer

    def handle_error(self, request, client_address) -> None:
        # The SDK's HTTP client resets a kept-alive connection it will not reuse:
        # not the server's error, and no traceback for `make run` to print.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's client expects
    server: _HTTPServer

    def setup(self) -> None:
        super().setup()
        # Headers and body go out as two small writes; with Nagle's algorithm on, the
        # second waits for the client's delayed ACK (~40 ms a call on loopback).
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Quiet: the loader says what it loaded, not each call."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._error(404, "not_found_error", f"no route GET {self.path}")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        if self.path.split("?", 1)[0] != MESSAGES_PATH:
            return self._error(404, "not_found_error", f"no route POST {self.path}")
        try:
            reply = self.server.scripted.message(json.loads(raw))
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
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", self.server.scripted.next_id("req"))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)
