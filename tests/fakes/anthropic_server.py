"""A fake Anthropic Messages API on loopback: real HTTP, real SSE, scripted replies.

The real SDK talks to it through ANTHROPIC_BASE_URL, so tests exercise the
SDK's retries, streaming and error mapping without the internet.

In-process::

    server = FakeAnthropicServer().start()
    server.enqueue(Reply.error(429), Reply.json({"assistantText": "hi"}))
    server.responder = lambda body: Reply.json(...)   # when the queue is empty
    server.base_url; server.requests; server.stop()

As a process (benchmarks, workers)::

    python -m tests.fakes.anthropic_server --port 8765 --latency-ms 200 \
        [--chunk-delay-ms 20] [--script replies.json] [--responder pkg.mod:func]

Without a script or responder the process answers every structured request
with an instance of the requested schema (see ``example_for_schema``); the
in-process server instead answers 500 "no reply scripted" (not retried), so
a test that forgot to script a reply fails loudly.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import signal
import socket
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from llm.loopback import LoopbackHandler, LoopbackHTTPServer, LoopbackServer, PromptCache
from tests.fakes.anthropic_wire import (
    Reply,
    error_body,
    estimate_tokens,
    example_for_schema,
    message_body,
    stream_events,
)

__all__ = [
    "FakeAnthropicServer",
    "ReceivedRequest",
    "Reply",
    "Responder",
    "no_reply_responder",
    "schema_example_responder",
]

Responder = Callable[[dict[str, Any]], Reply]


@dataclass(frozen=True)
class ReceivedRequest:
    """One request as the server saw it (header names lower-cased)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any] | None

    @property
    def streamed(self) -> bool:
        return bool(self.body and self.body.get("stream"))

    @property
    def system_text(self) -> str:
        """The system prompt as plain text, whether sent as a string or blocks."""
        system = (self.body or {}).get("system") or ""
        if isinstance(system, str):
            return system
        return "".join(block.get("text", "") for block in system)

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """``output_config.format.schema`` of a structured-output request."""
        config = (self.body or {}).get("output_config") or {}
        return (config.get("format") or {}).get("schema")


def no_reply_responder(body: dict[str, Any]) -> Reply:
    """The in-process default: fail loudly, and tell the SDK not to retry."""
    return Reply.error(500, message="fake server: no reply scripted", should_retry=False)


def schema_example_responder(body: dict[str, Any]) -> Reply:
    """Answer with an instance of the request's output schema (or plain text)."""
    schema = ((body.get("output_config") or {}).get("format") or {}).get("schema")
    if schema is None:
        return Reply.json("This is a reply from the fake Anthropic server.")
    return Reply.json(example_for_schema(schema))


class _HTTPServer(LoopbackHTTPServer):
    request_queue_size = 256
    allow_reuse_address = True


class FakeAnthropicServer(LoopbackServer):
    """The scripted server. Thread-safe; replies are consumed in order."""

    server_class = _HTTPServer
    thread_name = "fake-anthropic"

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        latency_ms: float = 0.0,
        chunk_delay_ms: float = 0.0,
        responder: Responder | None = None,
    ) -> None:
        self.latency_ms = latency_ms
        self.chunk_delay_ms = chunk_delay_ms
        self.responder: Responder | None = responder
        self.default_responder: Responder = no_reply_responder
        super().__init__(_Handler, host=host, port=port)
        self._lock = threading.Lock()
        self._queue: deque[Reply] = deque()
        self._requests: list[ReceivedRequest] = []
        self._ids = itertools.count(1)
        self._prompt_cache = PromptCache()

    # --- scripting --------------------------------------------------------
    def enqueue(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def reset(self) -> None:
        """Forget replies, requests, responder, latencies and the prompt cache."""
        with self._lock:
            self._queue.clear()
            self._requests.clear()
            self._prompt_cache.clear()
        self.responder = None
        self.latency_ms = 0.0
        self.chunk_delay_ms = 0.0

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    @property
    def requests(self) -> list[ReceivedRequest]:
        """Every request received, in arrival order (a copy)."""
        with self._lock:
            return list(self._requests)

    @property
    def message_requests(self) -> list[ReceivedRequest]:
        """Only ``POST /v1/messages`` requests."""
        return [r for r in self.requests if r.path == "/v1/messages"]

    # --- used by the handler ----------------------------------------------
    def _record(self, request: ReceivedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        responder = self.responder or self.default_responder
        try:
            return responder(body)
        except Exception as exc:  # a test's broken responder: report it, do not hang
            traceback.print_exc()
            return Reply.error(
                500, message=f"fake server responder failed: {exc!r}", should_retry=False
            )

    def _next_id(self, prefix: str) -> str:
        return f"{prefix}_fake_{next(self._ids)}"

    def _usage(self, body: dict[str, Any], reply: Reply) -> dict[str, int]:
        """Token counts: the reply's own, filled in with deterministic estimates.

        Simulates prompt caching: a system block marked ``cache_control`` is
        written to the cache the first time and read from it afterwards.
        """
        usage = self._prompt_cache.usage(body, reply.text or "")
        usage.update(reply.usage or {})
        return usage


class _Handler(LoopbackHandler):
    # Idle keep-alive connections give their thread back after this long.
    timeout = 120

    @property
    def fake(self) -> FakeAnthropicServer:
        return self.server.owner

    # --- plumbing ---------------------------------------------------------
    def _send_error_reply(self, reply: Reply, request_id: str) -> None:
        headers = {
            "request-id": request_id,
            "retry-after": str(int(reply.retry_after)),
            # The SDK ignores retry-after <= 0 and backs off instead: 1 ms minimum.
            "retry-after-ms": str(max(1, int(reply.retry_after * 1000))),
        }
        if reply.should_retry is not None:
            headers["x-should-retry"] = "true" if reply.should_retry else "false"
        self.send_json(reply.status, error_body(reply, request_id=request_id), headers)

    def _read_body(self) -> dict[str, Any] | None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _authorized(self) -> bool:
        bearer = self.headers.get("authorization", "")
        return bool(self.headers.get("x-api-key")) or (
            bearer.startswith("Bearer ") and len(bearer) > len("Bearer ")
        )

    def _reject(self, status: int, message: str) -> None:
        reply = Reply.error(status, message=message, should_retry=False)
        self._send_error_reply(reply, self.fake._next_id("req"))

    # --- routes -----------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        self._reject(404, f"no route GET {self.path}")

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        path = self.path.split("?", 1)[0]
        body = self._read_body()
        self.fake._record(
            ReceivedRequest(
                method="POST",
                path=path,
                headers={k.lower(): v for k, v in self.headers.items()},
                body=body,
            )
        )
        if not self._authorized():
            return self._reject(401, "missing API key (x-api-key or Authorization: Bearer)")
        if body is None:
            return self._reject(400, "body must be a JSON object")
        if path == "/v1/messages/count_tokens":
            tokens = estimate_tokens(json.dumps([body.get("system"), body.get("messages")]))
            return self.send_json(200, {"input_tokens": tokens})
        if path != "/v1/messages":
            return self._reject(404, f"no route POST {path}")
        problem = _invalid_messages_request(body)
        if problem:
            return self._reject(400, problem)
        try:
            self._answer(body, self.fake._next_reply(body))
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up first (its timeout, or a closed stream): normal.
            self.close_connection = True

    def _answer(self, body: dict[str, Any], reply: Reply) -> None:
        latency = reply.latency_ms if reply.latency_ms is not None else self.fake.latency_ms
        if latency > 0:
            time.sleep(latency / 1000.0)
        request_id = self.fake._next_id("req")
        streamed = bool(body.get("stream"))
        if reply.kind == "error" or (reply.kind == "stream_error" and not streamed):
            return self._send_error_reply(reply, request_id)
        usage = self.fake._usage(body, reply)
        message_id = self.fake._next_id("msg")
        if streamed:
            return self._stream(body, reply, usage, message_id, request_id)
        if reply.kind == "cut":
            return self._cut_plain(body, reply, usage, message_id, request_id)
        payload = message_body(
            reply=reply, message_id=message_id, model=body["model"], usage=usage, text=reply.text
        )
        if reply.trickle:
            return self._trickle_plain(reply, payload, request_id)
        self.send_json(200, payload, {"request-id": request_id})

    def _trickle_plain(self, reply: Reply, payload: Mapping[str, Any], request_id: str) -> None:
        """A non-streamed body sent ``chunk_chars`` bytes every ``chunk_delay_ms``."""
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", request_id)
        self.end_headers()
        step = max(1, reply.chunk_chars)
        for start in range(0, len(data), step):
            self.wfile.write(data[start : start + step])
            self.wfile.flush()
            time.sleep((reply.chunk_delay_ms or 0) / 1000.0)

    def _cut_plain(
        self,
        body: dict[str, Any],
        reply: Reply,
        usage: dict[str, int],
        message_id: str,
        request_id: str,
    ) -> None:
        """A non-streamed body that stops short of its Content-Length."""
        data = json.dumps(
            message_body(
                reply=reply,
                message_id=message_id,
                model=body["model"],
                usage=usage,
                text=reply.text,
            )
        ).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.send_header("request-id", request_id)
        self.end_headers()
        self.wfile.write(data[: max(0, min(len(data) - 1, reply.after_chars))])
        self._drop_connection()

    def _stream(
        self,
        body: dict[str, Any],
        reply: Reply,
        usage: dict[str, int],
        message_id: str,
        request_id: str,
    ) -> None:
        chunked = reply.framing == "chunked"
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("request-id", request_id)
        if chunked:
            self.send_header("transfer-encoding", "chunked")
        else:
            self.send_header("connection", "close")
            self.close_connection = True
        self.end_headers()
        delay = (
            reply.chunk_delay_ms if reply.chunk_delay_ms is not None else self.fake.chunk_delay_ms
        )
        events = stream_events(reply=reply, message_id=message_id, model=body["model"], usage=usage)
        try:
            for index, event in enumerate(events):
                if delay > 0 and index > 0:
                    time.sleep(delay / 1000.0)
                self.wfile.write(
                    f"{len(event):x}\r\n".encode() + event + b"\r\n" if chunked else event
                )
                self.wfile.flush()
            if reply.kind == "cut":
                return self._drop_connection()
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            # The client went away (e.g. the coach's browser closed): normal.
            self.close_connection = True

    def _drop_connection(self) -> None:
        self.wfile.flush()
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


def _invalid_messages_request(body: dict[str, Any]) -> str | None:
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "model: field required"
    if not isinstance(body.get("max_tokens"), int) or body["max_tokens"] < 1:
        return "max_tokens: must be a positive integer"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages: at least one message is required"
    system = body.get("system")
    if isinstance(system, list) and any(not block.get("text") for block in system):
        return "system: text content blocks must be non-empty"
    return None


# --- running as a process -------------------------------------------------
def _load_responder(spec: str) -> Responder:
    module_name, _, attribute = spec.partition(":")
    return getattr(importlib.import_module(module_name), attribute or "respond")


def _load_script(path: str) -> Iterable[Reply]:
    specs = json.loads(Path(path).read_text())
    return [Reply.from_spec(spec) for spec in specs]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="wait before each response")
    parser.add_argument("--chunk-delay-ms", type=float, default=0.0, help="wait between SSE events")
    parser.add_argument("--script", help="JSON list of replies (Reply.from_spec), served in order")
    parser.add_argument("--responder", help="module:function(body) -> Reply, after the script")
    args = parser.parse_args(argv)

    server = FakeAnthropicServer(
        host=args.host,
        port=args.port,
        latency_ms=args.latency_ms,
        chunk_delay_ms=args.chunk_delay_ms,
        responder=_load_responder(args.responder) if args.responder else None,
    )
    server.default_responder = schema_example_responder
    if args.script:
        server.enqueue(*_load_script(args.script))
    server.start()
    print(f"fake anthropic listening on http://{args.host}:{server.port}", flush=True)

    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    stopped.wait()
    server.stop()
    sys.exit(0)


if __name__ == "__main__":
    main()
