"""What every Messages API endpoint served on loopback shares: the server in a thread, the
handler's plumbing, token estimates and simulated prompt caching.

Two such endpoints exist: the demo inquiry's scripted model
(``inquiries/demo_server.py``, product code, so that a site deployed without
``tests/`` can load the demo) and the tests' fake Anthropic server
(``tests/fakes/anthropic_server.py``). Each answers in its own way; how it is
served, and what its replies say they cost, is the same, and lives here. No Django.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = [
    "LoopbackHTTPServer",
    "LoopbackHandler",
    "LoopbackServer",
    "PromptCache",
    "estimate_tokens",
]


def estimate_tokens(text: str) -> int:
    """About four characters a token: a deterministic stand-in for a tokenizer."""
    return max(1, (len(text) + 3) // 4)


class PromptCache:
    """Prompt caching as the API bills it: a system text marked ``cache_control`` is
    written to the cache the first time it is sent and read from it afterwards.
    Thread-safe (a server answers requests in several threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: set[str] = set()

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()

    def usage(self, body: Mapping[str, Any], output_text: str) -> dict[str, int]:
        """The token counts of one request (`body`) and its reply's text, estimated."""
        system = body.get("system") or ""
        blocks = [{"type": "text", "text": system}] if isinstance(system, str) else system
        cached = "".join(b.get("text", "") for b in blocks if b.get("cache_control"))
        plain = "".join(b.get("text", "") for b in blocks if not b.get("cache_control"))
        creation = read = 0
        if cached:
            with self._lock:
                seen = cached in self._seen
                self._seen.add(cached)
            if seen:
                read = estimate_tokens(cached)
            else:
                creation = estimate_tokens(cached)
        return {
            "input_tokens": estimate_tokens(plain + json.dumps(body.get("messages", []))),
            "output_tokens": estimate_tokens(output_text),
            "cache_creation_input_tokens": creation,
            "cache_read_input_tokens": read,
        }


class LoopbackHTTPServer(ThreadingHTTPServer):
    """A thread per connection; a stop neither waits for them nor reports dropped clients."""

    daemon_threads = True
    block_on_close = False
    owner: Any  # the LoopbackServer serving, for its handlers

    def handle_error(self, request, client_address) -> None:
        # A client that drops its connection (aiohttp resets a kept-alive one it will not
        # reuse, e.g. after a stream it stopped reading) is not the server's error, and
        # no traceback is printed for it; anything else still is.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class LoopbackHandler(BaseHTTPRequestHandler):
    """Keep-alive, as the SDK's client expects; quiet; JSON replies sent whole."""

    protocol_version = "HTTP/1.1"
    server: LoopbackHTTPServer

    def setup(self) -> None:
        super().setup()
        # Headers and body go out as separate small writes; with Nagle's algorithm on,
        # the second waits for the client's delayed ACK (~40 ms a call on loopback), a
        # stall no real API server has.
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Quiet: a server's owner says what matters (a loader, a test's assertions)."""

    def send_json(
        self, status: int, body: Mapping[str, Any], headers: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


class LoopbackServer:
    """Serves `handler` on `host` (a free port by default) from a daemon thread until
    stopped; the handlers find this object as ``self.server.owner``."""

    server_class: type[LoopbackHTTPServer] = LoopbackHTTPServer
    thread_name = "loopback-model"

    def __init__(
        self, handler: type[LoopbackHandler], *, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self._handler = handler
        self._address = (host, port)
        self._httpd: LoopbackHTTPServer | None = None

    def start(self) -> Self:
        self._httpd = self.server_class(self._address, self._handler)
        self._httpd.owner = self
        threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=self.thread_name,
            daemon=True,
        ).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "the server is not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"
