"""Stream one structured reply, surfacing one string field as it grows.

The coach shows the student ``assistantText`` while the model is still
writing the rest of its JSON; the final, validated object arrives last.

What a misbehaving stream can cost is bounded here:

- work: the events are read as the JSON objects they are (a
  ``POST /v1/messages`` through the client, with its retries and error
  mapping, returning the open response), not as the typed events
  ``messages.create(stream=True)`` builds (a pydantic model per event: about
  a third of a coach turn's CPU, 30-odd events a reply) nor through its
  ``MessageStream`` helper, which also rebuilds the whole text and a snapshot
  for every event. The body is read a chunk at a time and each chunk's events
  taken at once (:class:`~llm.sse.EventReader`, the SDK's own reading; an
  ``error`` event raised as the SDK raises it), where the SDK's stream awaits
  every event through four nested generators. A stream that is not UTF-8 or
  whose event is not JSON is ``stream_failed``, as a broken one is. The text
  field is decoded incrementally (:class:`~llm.partial_json.StringFieldReader`),
  so a reply of n characters costs O(n) however finely it is cut. Every few milliseconds of continuous
  work the generator lets the event loop serve others (a flood of buffered
  events never needs to wait on the socket, so it would never yield);
- size: past ``max_reply_chars`` characters the stream is closed
  (``too_large``);
- time: the whole call, retries and the stream included, ends at
  ``deadline_s`` (``deadline_exceeded``): the SDK's timeout is per read, so a
  stream trickling a character a second would otherwise never end.

The request body goes as the JSON bytes it is (``content=``): the parameters
are plain dicts, lists and strings, which the SDK would otherwise walk and copy
and then encode with the same ``json`` module (about 0.1 ms a request).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx2
from anthropic import AsyncAnthropic
from pydantic import BaseModel

from llm.deadline import ReadDeadline
from llm.errors import LLMError
from llm.partial_json import StringFieldReader
from llm.pricing import cost_usd
from llm.reply import StructuredReply, finish_reply
from llm.request import LLMRequest, request_params
from llm.sdk_errors import CALL_ERRORS, STREAM_ERRORS, call_failed, stream_failed
from llm.sse import Event, EventReader
from llm.structured import deadline_error, too_large_error
from llm.usage import Usage
from untrusted import clean_text

__all__ = ["StreamDone", "TextDelta", "astream_structured"]


# The SDK's own encoder settings (anthropic._utils._json): the same bytes on the wire.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _request_body(params: dict[str, Any]) -> bytes:
    """The streamed request's JSON body; the client's default Content-Type says it is JSON."""
    return _ENCODER.encode({**params, "stream": True}).encode()


M = TypeVar("M", bound=BaseModel)

# Longest stretch of work on buffered events before the loop serves others.
_SLICE_S = 0.001


@dataclass(frozen=True, slots=True)
class TextDelta:
    """The characters this step added to the text field (never empty)."""

    added: str


@dataclass(frozen=True, slots=True)
class StreamDone(Generic[M]):
    """The last item of a stream: the validated reply."""

    reply: StructuredReply[M]


class _Reply:
    """What the raw events have said so far: text pieces, usage, stop reason, model."""

    def __init__(self, *, text_field: str, request: LLMRequest[Any]):
        self.reader = StringFieldReader(text_field)
        self.pieces: list[str] = []
        self.chars = 0
        self.has_text = False
        self.started = False
        self.usage = Usage()
        self.stop_reason: str | None = None
        self.answered_model = request.model
        self._max_chars = request.max_reply_chars
        self._model, self._prices = request.model, request.prices

    def text(self) -> str | None:
        return "".join(self.pieces) if self.has_text else None

    def billed(self) -> dict[str, Any]:
        """What was billed so far, and the text, for an LLMError."""
        if not self.started:
            return {"raw_text": self.text()}
        cost = cost_usd(model=self._model, usage=self.usage, prices=self._prices)
        return {"usage": self.usage, "cost_usd": cost, "raw_text": self.text()}

    def add(self, event: Any) -> str:
        """Take one raw event (its JSON object) in; return the text field's new characters.

        Read defensively: a field the API left out (or a stranger shape) counts as
        absent, as the SDK's lenient model construction would have it.
        """
        if not isinstance(event, dict):
            return ""
        kind = event.get("type")
        if kind == "content_block_delta":
            delta = _object(event.get("delta"))
            return self._text(delta.get("text")) if delta.get("type") == "text_delta" else ""
        if kind == "content_block_start":
            block = _object(event.get("content_block"))
            if block.get("type") == "text":
                self.has_text = True
                return self._text(block.get("text"))
        elif kind == "message_start":
            message = _object(event.get("message"))
            self.started = True
            self.answered_model = message.get("model") or self.answered_model
            self.usage = Usage.from_sdk(_Fields(_object(message.get("usage"))))
        elif kind == "message_delta":
            self.stop_reason = _object(event.get("delta")).get("stop_reason")
            self._delta_usage(_Fields(_object(event.get("usage"))))
        return ""

    def _text(self, piece: Any) -> str:
        if not piece or not isinstance(piece, str):
            return ""
        self.chars += len(piece)
        if self.chars > self._max_chars:
            self.pieces.append(piece[: len(piece) - (self.chars - self._max_chars)])
            raise too_large_error(self._max_chars, **self.billed())
        self.pieces.append(piece)
        return self.reader.feed(piece)

    def _delta_usage(self, usage: Any) -> None:
        # A message_delta's counts are running totals; fields it leaves out keep
        # the message_start value (as the SDK's own accumulator does).
        def latest(name: str) -> int:
            value = getattr(usage, name, None)
            return getattr(self.usage, name) if value is None else value

        self.usage = Usage(
            input_tokens=latest("input_tokens"),
            output_tokens=latest("output_tokens"),
            cache_creation_input_tokens=latest("cache_creation_input_tokens"),
            cache_read_input_tokens=latest("cache_read_input_tokens"),
        )


_NONE_LEFT = object()


def _next_object(events: Iterator[Event], client: AsyncAnthropic, response: httpx2.Response) -> Any:
    """The next event's JSON as the SDK's stream passes it on (``AsyncStream.__stream__``):
    pings, untyped and empty events skipped, an ``error`` event raised as the SDK raises
    it; `_NONE_LEFT` when the chunk has no more."""
    for sse in events:
        if sse.event is None or sse.event == "ping":
            continue
        if sse.event == "error":
            try:
                body: Any = json.loads(sse.data)
                message = f"{body}"
            except ValueError:
                body, message = sse.data, sse.data or f"Error code: {response.status_code}"
            raise client._make_status_error(message, body=body, response=response)
        if sse.data:
            return json.loads(sse.data)
    return _NONE_LEFT


def _broken(exc: Exception, reply: _Reply) -> LLMError:
    billed = reply.billed()
    return stream_failed(
        exc, usage=billed.get("usage"), cost=billed.get("cost_usd"), raw_text=billed["raw_text"]
    )


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


class _Fields:
    """A JSON object's keys as attributes (what ``Usage.from_sdk`` reads); missing ones are None."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        value = self._data.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


async def astream_structured(
    *, client: AsyncAnthropic, request: LLMRequest[M], text_field: str = "assistantText"
) -> AsyncIterator[TextDelta | StreamDone[M]]:
    """Yield TextDelta each time top-level string ``text_field`` grows, then StreamDone.

    Raises LLMError: call_failed (the request failed before streaming, after
    the SDK's retries), stream_failed (the stream broke off), truncated,
    validation_failed, too_large (past ``request.max_reply_chars``),
    deadline_exceeded (not done within ``request.deadline_s``, retries included).
    Closing the generator early (e.g. the browser went away) closes the HTTP
    stream. The deadline is checked around each read, never across a
    ``yield``: the time the caller spends between items counts, but the
    caller's own awaits are never cancelled by it.
    """
    # No request hash: a hash is how a ledger replays a paid call, and a streamed
    # reply (a student's coach turn) is never replayed; it cost a canonical JSON
    # encoding of the whole prompt per turn. The reply's request_hash is "".
    params = request_params(request)
    deadline_s = request.deadline_s
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    deadline = loop.time() + deadline_s
    reply = _Reply(text_field=text_field, request=request)
    first_text_ms: float | None = None
    try:
        async with asyncio.timeout_at(deadline):
            # What messages.create(stream=True) sends; the body read as it comes (docstring).
            response = await client.post(
                "/v1/messages",
                content=_request_body(params),
                cast_to=httpx2.Response,
                stream=True,
            )
    except TimeoutError as exc:
        raise deadline_error(deadline_s) from exc
    except CALL_ERRORS as exc:
        raise call_failed(exc) from exc
    # One timer for every read of the stream (llm.deadline), not one per chunk.
    reads = ReadDeadline(deadline)
    reader = EventReader()
    try:
        chunks = aiter(response.aiter_bytes())
        pause_at = loop.time() + _SLICE_S
        ended = False
        while not ended:
            try:
                chunk = await reads.read(anext(chunks))
            except StopAsyncIteration:
                chunk, ended = None, True
            except TimeoutError as exc:
                raise deadline_error(deadline_s, **reply.billed()) from exc
            except STREAM_ERRORS as exc:
                raise _broken(exc, reply) from exc
            events = reader.close() if ended else reader.feed(chunk)
            while True:
                try:
                    event = _next_object(events, client, response)
                except (*STREAM_ERRORS, ValueError) as exc:  # an error event; not UTF-8 or JSON
                    raise _broken(exc, reply) from exc
                if event is _NONE_LEFT:
                    break
                # A lone surrogate would break the NDJSON line's UTF-8 encoding.
                added = clean_text(reply.add(event))
                if added:
                    if first_text_ms is None:
                        first_text_ms = (time.perf_counter() - started) * 1000.0
                    yield TextDelta(added=added)
                if loop.time() >= pause_at:
                    await asyncio.sleep(0)
                    pause_at = loop.time() + _SLICE_S
        request_id = response.headers.get("request-id")
    finally:
        reads.close()
        await response.aclose()

    if not reply.started:
        raise LLMError("stream_failed", "the stream ended before message_start")
    yield StreamDone(
        reply=finish_reply(
            text=reply.text(),
            usage=reply.usage,
            stop_reason=reply.stop_reason,
            answered_model=reply.answered_model,
            request=request,
            hash_="",
            latency_ms=(time.perf_counter() - started) * 1000.0,
            streamed=True,
            first_text_ms=first_text_ms,
            request_id=request_id,
        )
    )
