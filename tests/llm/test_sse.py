"""llm.sse.EventReader: the SDK's reading of an event stream, a chunk at a time."""

from __future__ import annotations

from anthropic._streaming import SSEDecoder  # the independent implementation compared against
from hypothesis import given, settings
from hypothesis import strategies as st

from llm.sse import Event, EventReader


def read(*chunks: bytes) -> list[Event]:
    reader = EventReader()
    events = [event for chunk in chunks for event in reader.feed(chunk)]
    return events + list(reader.close())


def visible(events: list[tuple[str | None, str]]) -> list[tuple[str | None, str]]:
    """What the SDK's stream passes on or raises for (AsyncStream.__stream__)."""
    return [
        (name, data)
        for name, data in events
        if name is not None and name != "ping" and (name == "error" or data)
    ]


def sdk_events(chunks: list[bytes]) -> list[tuple[str | None, str]]:
    return [(sse.event, sse.data) for sse in SSEDecoder().iter_bytes(iter(chunks))]


def test_it_reads_the_messages_api_stream():
    body = (
        b'event: message_start\ndata: {"type":"message_start"}\n\n'
        b'event: ping\ndata: {"type": "ping"}\n\n'
        b'event: content_block_delta\ndata: {"text":"Hi"}\n\n'
    )
    assert read(body) == [
        Event("message_start", '{"type":"message_start"}'),
        Event("ping", '{"type": "ping"}'),
        Event("content_block_delta", '{"text":"Hi"}'),
    ]


def test_it_returns_an_event_only_once_its_blank_line_has_come():
    reader = EventReader()
    assert list(reader.feed(b"event: a\r\nda")) == []
    assert list(reader.feed(b"ta: 1\r\n")) == []
    assert list(reader.feed(b"\r\nevent: b\r\ndata: 2\r\n\r")) == [Event("a", "1")]
    assert list(reader.feed(b"\n")) == [Event("b", "2")]


def test_it_joins_data_lines_and_skips_comments_and_other_fields():
    assert read(b": keep-alive\nid: 7\nretry: 10\nevent: e\ndata: one\ndata:two\nfoo: x\n\n") == [
        Event("e", "one\ntwo")
    ]


def test_it_reads_an_event_left_at_the_end_as_the_sdk_does():
    # No blank line at the end: the SDK decodes what is left and finds no event...
    assert read(b"event: a\ndata: 1\n") == []
    # ...unless a blank line sits inside it, which a stray CR before a CRLF makes.
    assert read(b"data: 1\r\r\n") == [Event(None, "1")]
    assert sdk_events([b"data: 1\r\r\n"]) == [(None, "1")]


line_text = st.text(
    alphabet=st.sampled_from(list('abe: {}"1') + ["é", "\u2014", "\U0001f600"]), max_size=12
)
field_line = st.one_of(
    st.tuples(st.sampled_from(["event", "data", "id", "retry", "other", ""]), line_text).map(
        lambda pair: f"{pair[0]}:{pair[1]}"
    ),
    st.sampled_from(["event: ping", "event: error", "event: message_start", ": comment", ""]),
)
ending = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def cut_streams(draw) -> list[bytes]:
    lines = draw(st.lists(st.tuples(field_line, ending), max_size=30))
    body = "".join(line + end for line, end in lines).encode()
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=8)))
    bounds = [0, *cuts, len(body)]
    return [body[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def as_read(chunks: list[bytes]) -> list[tuple[int, str | None, str]]:
    """Each visible event with the number of chunks read when it came out."""
    reader, out = EventReader(), []
    for count, chunk in enumerate(chunks, start=1):
        out += [(count, event.event, event.data) for event in reader.feed(chunk)]
    out += [(len(chunks), event.event, event.data) for event in reader.close()]
    return [(count, *rest) for count, *rest in out if visible([tuple(rest)])]


def as_the_sdk_reads(chunks: list[bytes]) -> list[tuple[int, str | None, str]]:
    pulled = 0

    def source():
        nonlocal pulled
        for chunk in chunks:
            pulled += 1
            yield chunk

    out = [(pulled, sse.event, sse.data) for sse in SSEDecoder().iter_bytes(source())]
    return [(count, *rest) for count, *rest in out if visible([tuple(rest)])]


@settings(max_examples=400, deadline=None)
@given(cut_streams())
def test_it_passes_on_what_the_sdk_passes_on_as_soon_as_the_sdk_does(chunks):
    assert as_read(chunks) == as_the_sdk_reads(chunks)


@st.composite
def lf_streams(draw) -> list[bytes]:
    """What the Messages API sends: every line ending in LF (the reader's fast path), cut
    at random places, some of them inside a character or between the two LFs."""
    event = st.tuples(
        st.sampled_from(["message_start", "content_block_delta", "ping", "error", ""]),
        st.lists(line_text, min_size=0, max_size=2),
        st.lists(field_line, max_size=2),  # anything else, before the blank line or after
    ).map(lambda e: [f"event: {e[0]}", *(f"data: {d}" for d in e[1]), *e[2], ""])
    lines = [line for block in draw(st.lists(event, max_size=12)) for line in block]
    body = "".join(line + "\n" for line in lines).encode()
    cuts = sorted(draw(st.lists(st.integers(0, len(body)), max_size=8)))
    bounds = [0, *cuts, len(body)]
    return [body[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


@settings(max_examples=400, deadline=None)
@given(lf_streams())
def test_it_passes_on_what_the_sdk_passes_on_when_lines_end_in_lf(chunks):
    assert as_read(chunks) == as_the_sdk_reads(chunks)


def outcome(read_events) -> tuple[list[tuple[str | None, str]], bool]:
    """The events read before the stream failed that the SDK's stream passes on, and
    whether it failed on bad UTF-8."""
    events = []
    try:
        for name, data in read_events:
            events.append((name, data))
    except UnicodeDecodeError:
        return visible(events), True
    return visible(events), False


def reader_events(chunks: list[bytes]):
    reader = EventReader()
    for chunk in chunks:
        for event in reader.feed(chunk):
            yield event.event, event.data
    for event in reader.close():
        yield event.event, event.data


@settings(max_examples=300, deadline=None)
@given(lf_streams(), st.data())
def test_it_fails_on_bytes_that_are_not_utf8_where_the_sdk_fails(chunks, data):
    body = b"".join(chunks)
    at = data.draw(st.integers(0, len(body)))
    bad = body[:at] + data.draw(st.sampled_from([b"\xff", b"\xc3", b"\xe2\x80"])) + body[at:]
    cut = data.draw(st.integers(0, len(bad)))
    pieces = [piece for piece in (bad[:cut], bad[cut:]) if piece]
    sdk = ((sse.event, sse.data) for sse in SSEDecoder().iter_bytes(iter(pieces)))
    assert outcome(reader_events(pieces)) == outcome(sdk)
