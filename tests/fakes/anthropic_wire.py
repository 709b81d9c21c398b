"""What the fake Anthropic server says: scripted replies rendered in the Messages API wire format.

Kept apart from the HTTP plumbing (anthropic_server.py) so the wire format
can be read in one place. Shapes follow /work/shared notes and the SDK's own
types (anthropic 2.12): ``event:`` lines are required on every SSE event.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from llm.loopback import estimate_tokens

__all__ = [
    "ERROR_TYPES",
    "Reply",
    "error_body",
    "estimate_tokens",
    "example_for_schema",
    "message_body",
    "sse_event",
    "stream_events",
]

ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    503: "api_error",
    529: "overloaded_error",
}

ReplyKind = Literal["message", "error", "cut", "stream_error", "garbled"]


def _as_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if hasattr(content, "model_dump_json"):
        return content.model_dump_json()
    return json.dumps(content)


@dataclass(frozen=True)
class Reply:
    """One scripted answer. Build with the class methods, not the constructor.

    ``text`` None means a message with no content block. ``latency_ms`` (wait
    before the response head) overrides the server-wide latency;
    ``chunk_delay_ms`` spaces out stream events. ``chunk_chars`` is the number
    of text characters per ``content_block_delta``. ``trickle`` (see
    :meth:`trickle`) also sends a non-streamed body ``chunk_chars`` bytes at a
    time, ``chunk_delay_ms`` apart.
    """

    kind: ReplyKind
    text: str | None = None
    stop_reason: str | None = "end_turn"
    usage: Mapping[str, int] | None = None
    status: int = 200
    error_type: str | None = None
    error_message: str = ""
    retry_after: float = 0.0
    should_retry: bool | None = None
    after_chars: int = 0
    framing: Literal["chunked", "close"] = "chunked"
    chunk_chars: int = 12
    latency_ms: float | None = None
    chunk_delay_ms: float | None = None
    model: str | None = None
    trickle: bool = False
    # A tool call instead of text (see :meth:`tool_use`): {"id", "name", "input"}.
    tool_call: Mapping[str, Any] | None = None
    # Bytes sent as they are after the text (see :meth:`garbled`).
    garbage: bytes = b""

    @classmethod
    def json(
        cls,
        obj_or_text: Any,
        *,
        usage: Mapping[str, int] | None = None,
        stop_reason: str | None = "end_turn",
        chunk_chars: int = 12,
        latency_ms: float | None = None,
        chunk_delay_ms: float | None = None,
        model: str | None = None,
    ) -> Reply:
        """A normal reply. A str is sent verbatim (so it may be malformed JSON); a
        pydantic model is dumped; anything else is ``json.dumps``-ed. Streamed
        in ``chunk_chars`` pieces."""
        text = _as_text(obj_or_text)
        return cls(
            kind="message",
            text=text,
            usage=usage,
            stop_reason=stop_reason,
            chunk_chars=chunk_chars,
            latency_ms=latency_ms,
            chunk_delay_ms=chunk_delay_ms,
            model=model,
        )

    @classmethod
    def tool_use(
        cls,
        name: str,
        tool_input: Mapping[str, Any],
        *,
        tool_id: str = "toolu_fake_1",
        usage: Mapping[str, int] | None = None,
    ) -> Reply:
        """A message whose only content block is a ``tool_use`` (stop_reason ``tool_use``).

        Non-streamed requests only (streams send no tool blocks here).
        """
        return cls(
            kind="message",
            text=None,
            stop_reason="tool_use",
            usage=usage,
            tool_call={"id": tool_id, "name": name, "input": dict(tool_input)},
        )

    @classmethod
    def empty(
        cls, *, stop_reason: str | None = "end_turn", usage: Mapping[str, int] | None = None
    ) -> Reply:
        """A message with no content blocks at all."""
        return cls(kind="message", text=None, stop_reason=stop_reason, usage=usage)

    @classmethod
    def error(
        cls,
        status: int,
        *,
        retry_after: float = 0.0,
        error_type: str | None = None,
        message: str = "",
        should_retry: bool | None = None,
        latency_ms: float | None = None,
    ) -> Reply:
        """An HTTP error with the documented error JSON.

        ``retry_after`` is seconds. The SDK treats ``retry-after: 0`` as
        "unspecified" and backs off 0.5 s x 2^n, so the server also sends
        ``retry-after-ms`` of at least 1 ms: 0 here means "retry at once".
        """
        return cls(
            kind="error",
            status=status,
            retry_after=retry_after,
            error_type=error_type or ERROR_TYPES.get(status, "api_error"),
            error_message=message or f"fake error {status}",
            should_retry=should_retry,
            latency_ms=latency_ms,
            stop_reason=None,
        )

    @classmethod
    def cut(
        cls,
        text: Any,
        *,
        after_chars: int,
        framing: Literal["chunked", "close"] = "chunked",
        chunk_chars: int = 12,
        usage: Mapping[str, int] | None = None,
    ) -> Reply:
        """Stream the first ``after_chars`` characters, then drop the connection
        without ``message_delta``/``message_stop``.

        ``framing="chunked"`` (like the real API) leaves a chunked body
        unfinished, so the client's HTTP layer raises; ``"close"`` delimits the
        body by closing the socket, so the SDK just sees the events stop.
        Non-streamed requests get a body shorter than its Content-Length.
        """
        text = _as_text(text)
        return cls(
            kind="cut",
            text=text,
            after_chars=after_chars,
            framing=framing,
            chunk_chars=chunk_chars,
            usage=usage,
            stop_reason=None,
        )

    @classmethod
    def stream_error(
        cls,
        text: Any = "",
        *,
        after_chars: int | None = None,
        error_type: str = "overloaded_error",
        message: str = "Overloaded",
    ) -> Reply:
        """Stream some text, then an ``event: error``. Non-streamed requests get HTTP 529."""
        text = _as_text(text)
        return cls(
            kind="stream_error",
            text=text,
            after_chars=len(text) if after_chars is None else after_chars,
            error_type=error_type,
            error_message=message,
            status=529,
            stop_reason=None,
        )

    @classmethod
    def garbled(cls, text: Any, *, after_chars: int, garbage: bytes) -> Reply:
        """Stream the first ``after_chars`` characters, then ``garbage`` as it is (an event
        whose data is not JSON, bytes that are not UTF-8), then end the body cleanly.
        Streamed requests only."""
        text = _as_text(text)
        return cls(
            kind="garbled", text=text, after_chars=after_chars, garbage=garbage, stop_reason=None
        )

    @classmethod
    def trickle_of(cls, obj_or_text: Any, *, every_ms: float, chars: int = 1) -> Reply:
        """A reply that drips out ``chars`` characters every ``every_ms``: each
        piece arrives well within any read timeout, so only an overall deadline
        ends it. Streamed, as SSE events; non-streamed, as the body's bytes."""
        return replace(
            cls.json(obj_or_text, chunk_chars=chars, chunk_delay_ms=every_ms), trickle=True
        )

    @classmethod
    def huge(
        cls, size: int, *, field: str = "assistantText", chunk_chars: int = 12, **fields: Any
    ) -> Reply:
        """A valid JSON reply whose string ``field`` holds ``size`` characters of
        plain words, streamed in ``chunk_chars`` pieces (a misbehaving model that
        ignores max_tokens). ``fields`` are the object's other members."""
        words = "the model keeps writing and writing "
        filler = (words * (size // len(words) + 1))[:size]
        return cls.json({field: filler, **fields}, chunk_chars=chunk_chars)

    def with_latency(self, latency_ms: float) -> Reply:
        return replace(self, latency_ms=latency_ms)

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> Reply:
        """Build from a JSON script entry, e.g. ``{"kind": "json", "content": {...}}``,
        ``{"kind": "error", "status": 429}``, ``{"kind": "cut", "text": "..",
        "after_chars": 5}``, ``{"kind": "stream_error"}``, ``{"kind": "empty"}``,
        ``{"kind": "trickle", "content": {...}, "every_ms": 2000}``,
        ``{"kind": "huge", "size": 1000000, "step": "claim"}``."""
        spec = dict(spec)
        kind = spec.pop("kind", "json")
        if kind == "json":
            return cls.json(spec.pop("content"), **spec)
        if kind == "error":
            return cls.error(spec.pop("status"), **spec)
        if kind == "cut":
            return cls.cut(spec.pop("text"), **spec)
        if kind == "stream_error":
            return cls.stream_error(spec.pop("text", ""), **spec)
        if kind == "empty":
            return cls.empty(**spec)
        if kind == "trickle":
            return cls.trickle_of(spec.pop("content"), **spec)
        if kind == "huge":
            return cls.huge(spec.pop("size"), **spec)
        raise ValueError(f"unknown reply kind {kind!r}")


def error_body(reply: Reply, *, request_id: str) -> dict[str, Any]:
    return {
        "type": "error",
        "error": {"type": reply.error_type or "api_error", "message": reply.error_message},
        "request_id": request_id,
    }


def message_body(
    *, reply: Reply, message_id: str, model: str, usage: Mapping[str, int], text: str | None
) -> dict[str, Any]:
    """A complete non-streamed Message."""
    content: list[dict[str, Any]] = [] if text is None else [{"type": "text", "text": text}]
    if reply.tool_call is not None:
        content.append({"type": "tool_use", **reply.tool_call})
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": reply.model or model,
        "content": content,
        "stop_reason": reply.stop_reason,
        "stop_sequence": None,
        "usage": dict(usage),
    }


def sse_event(name: str, data: Mapping[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def stream_events(
    *, reply: Reply, message_id: str, model: str, usage: Mapping[str, int]
) -> Iterator[bytes]:
    """The SSE events of a streamed reply, stopping where a cut/error reply stops."""
    start_usage = {**usage, "output_tokens": 1}
    yield sse_event(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": reply.model or model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": start_usage,
            },
        },
    )
    yield sse_event("ping", {"type": "ping"})
    text = reply.text
    limit = len(text) if text is not None and reply.kind == "message" else reply.after_chars
    if text is not None:
        yield sse_event(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        )
        sent = text[:limit]
        step = max(1, reply.chunk_chars)
        for start in range(0, len(sent), step):
            yield sse_event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": sent[start : start + step]},
                },
            )
    if reply.kind == "cut":
        return
    if reply.kind == "garbled":
        yield reply.garbage
        return
    if reply.kind == "stream_error":
        yield sse_event(
            "error",
            {"type": "error", "error": {"type": reply.error_type, "message": reply.error_message}},
        )
        return
    if text is not None:
        yield sse_event("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield sse_event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": reply.stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        },
    )
    yield sse_event("message_stop", {"type": "message_stop"})


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return root.get("$defs", {})[ref.removeprefix("#/$defs/")]
    return schema


def _constraint(schema: Mapping[str, Any], name: str) -> float | None:
    """A numeric constraint, kept as a key or moved by the SDK into the
    description as ``{minimum: 1, ...}``."""
    if isinstance(schema.get(name), int | float):
        return float(schema[name])
    match = re.search(rf"\b{name}: (-?\d+(?:\.\d+)?)", schema.get("description") or "")
    return float(match.group(1)) if match else None


def example_for_schema(schema: Mapping[str, Any], *, _root: Mapping[str, Any] | None = None) -> Any:
    """A small instance of a JSON schema (the first option of every choice).

    Lets the fake answer any structured request without a script, e.g. in
    benchmarks. Constraints moved into descriptions by the SDK are not honoured.
    """
    root = schema if _root is None else _root
    schema = _resolve(schema, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf", "allOf"):
        if schema.get(combinator):
            return example_for_schema(schema[combinator][0], _root=root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        return {
            name: example_for_schema(sub, _root=root)
            for name, sub in schema.get("properties", {}).items()
        }
    if kind == "array":
        items = schema.get("items")
        count = max(1, int(_constraint(schema, "minItems") or 0))
        return [example_for_schema(items, _root=root)] * count if isinstance(items, Mapping) else []
    if kind == "string":
        text = "example text"
        return text.ljust(int(_constraint(schema, "minLength") or 0), ".")
    if kind in ("integer", "number"):
        low = _constraint(schema, "minimum")
        if low is None and (exclusive := _constraint(schema, "exclusiveMinimum")) is not None:
            low = exclusive + 1
        value = low if low is not None and low > 0 else 0.0
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None
