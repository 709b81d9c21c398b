"""Server-sent events out of a streamed body, every event a chunk completes at once.

The SDK reads a stream through four nested async generators per event (its
``SSEDecoder._aiter_chunks`` and ``aiter_bytes``, ``AsyncStream._iter_events``
and ``__stream__``), and the caller awaits each event through them: with the
model's reply arriving in a few TCP chunks, most of a coach turn's stream
handling was that machinery, not the reading. `EventReader` reads the same
bytes the same way (the SDK's ``SSEDecoder``, anthropic 2.12, itself the
WHATWG event-stream interpretation) but takes a whole chunk at a time and
gives every event it completed with no await between them, so the caller
awaits once per chunk.
``tests/llm/test_sse.py`` holds its events to the SDK decoder's over random
streams cut at random places.

Source: https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Event", "EventReader"]

_EVENT_ENDS = (b"\r\r", b"\n\n", b"\r\n\r\n")


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event: its type (None when the stream named none or an empty one)
    and its data."""

    event: str | None
    data: str


class EventReader:
    """Feed the body's chunks in order; each call gives the events they completed.

    As the SDK: bytes are gathered line by line until they end with a blank line,
    then decoded as UTF-8 line by line (a byte sequence that is not UTF-8 raises
    UnicodeDecodeError); `close` decodes what is left when the body ends. Only what the SDK's stream passes on is reported: an
    event with a type or data. ``id`` and ``retry`` lines are read and dropped
    (the Messages API sends neither; the SDK's stream never looks at them).
    """

    __slots__ = ("_pending", "_event", "_data")

    def __init__(self) -> None:
        self._pending = b""
        self._event: str | None = None
        self._data: list[str] = []

    def feed(self, chunk: bytes) -> Iterator[Event]:
        """The events this chunk completes, one at a time: a line that is not UTF-8
        raises where it stands, after the events before it (the SDK's order)."""
        if b"\r" in chunk or b"\r" in self._pending:
            yield from self._feed_lines(chunk)
            return
        # Lines end in LF only (the Messages API's stream). Then a blank line is where
        # "\n\n" stands, and every "\n\n" is a blank line's end: everything up to the
        # last one is whole events, the same lines the SDK's line-by-line gathering
        # would decode, decoded at once.
        pending = self._pending + chunk
        last = pending.rfind(b"\n\n")
        if last == -1:
            self._pending = pending
            return
        complete, self._pending = pending[: last + 2], pending[last + 2 :]
        try:
            text = complete.decode("utf-8")
        except UnicodeDecodeError:
            # Some line is not UTF-8: the SDK's way, so it fails where the SDK fails.
            rest, self._pending = self._pending, b""
            yield from self._feed_lines(complete)
            self._pending += rest
            return
        yield from self._read_lines(text)

    def _read_lines(self, text: str) -> list[Event]:
        """The events of whole lines, each ending in LF, read in one loop: a call or a
        generator's resumption per line cost more than reading the line."""
        lines = text.split("\n")
        lines.pop()  # after the last LF: splitlines() leaves nothing there
        events: list[Event] = []
        kind, data = self._event, self._data
        for line in lines:
            if not line:
                if kind or data:  # an empty type is no type, as in the SDK
                    events.append(Event(kind or None, "\n".join(data)))
                kind, data = None, []
            elif line[0] != ":":
                name, _, value = line.partition(":")
                if value[:1] == " ":
                    value = value[1:]
                if name == "event":
                    kind = value
                elif name == "data":
                    data.append(value)
        self._event, self._data = kind, data
        return events

    def close(self) -> Iterator[Event]:
        """The events in what was left when the body ended (the SDK decodes it too)."""
        block, self._pending = self._pending, b""
        return self._decode(block)

    def _feed_lines(self, chunk: bytes) -> Iterator[Event]:
        # The SDK's own gathering (SSEDecoder._aiter_chunks), for any line ending.
        for line in chunk.splitlines(keepends=True):
            self._pending += line
            if self._pending.endswith(_EVENT_ENDS):
                block, self._pending = self._pending, b""
                yield from self._decode(block)

    def _decode(self, block: bytes) -> Iterator[Event]:
        # Line by line, so that a line that is not UTF-8 raises after the events before it.
        for raw_line in block.splitlines():
            yield from self._read_lines(raw_line.decode("utf-8") + "\n")
