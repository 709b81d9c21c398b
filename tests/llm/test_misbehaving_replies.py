"""Replies that misbehave: far too long, or trickling forever. Every call ends, with a clear code."""

import asyncio
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llm import (
    LLMError,
    StreamDone,
    StringFieldReader,
    acall_structured,
    astream_structured,
    call_structured,
    make_async_client,
    make_client,
)
from tests.fakes.anthropic_server import Reply
from tests.llm.support import call_kwargs, collect, run, valid_reply

# A trickle of one character every 0.2 s: each piece is far inside any read
# timeout, and the whole reply would take over ten seconds.
TRICKLE_MS = 200
TRICKLE = valid_reply("Step by step, one character at a time, forever and ever.")
TRICKLE_WOULD_TAKE_S = len(json.dumps(TRICKLE)) * TRICKLE_MS / 1000
DEADLINE_S = 0.8


async def stream_all(**overrides):
    async with make_async_client(timeout=5, max_retries=0) as client:
        return await collect(astream_structured(**call_kwargs(client, **overrides)))


async def acall(**overrides):
    async with make_async_client(timeout=5, max_retries=0) as client:
        return await acall_structured(**call_kwargs(client, **overrides))


def failure_of(call) -> LLMError:
    with pytest.raises(LLMError) as caught:
        call()
    return caught.value


def test_it_cuts_a_streamed_reply_at_the_size_limit(fake_anthropic):
    fake_anthropic.enqueue(Reply.huge(300_000, step=2))
    error = failure_of(lambda: run(stream_all(max_reply_chars=20_000)))
    assert error.code == "too_large"
    assert len(error.raw_text) == 20_000
    assert error.usage is not None and error.usage.input_tokens > 0
    assert len(fake_anthropic.message_requests) == 1


def test_it_streams_a_long_reply_in_twelve_character_pieces_to_the_end(fake_anthropic):
    """With the limit raised, every character arrives once, in order, as deltas."""
    fake_anthropic.enqueue(Reply.huge(150_000, step=2, chunk_chars=12))
    *deltas, done = run(stream_all(max_reply_chars=200_000))
    assert isinstance(done, StreamDone)
    text = "".join(delta.added for delta in deltas)
    assert text == done.reply.parsed.assistantText
    assert len(text) == 150_000


def test_it_ends_a_trickling_stream_at_the_deadline(fake_anthropic):
    fake_anthropic.enqueue(Reply.trickle_of(TRICKLE, every_ms=TRICKLE_MS))
    started = time.monotonic()
    error = failure_of(lambda: run(stream_all(deadline_s=DEADLINE_S)))
    assert error.code == "deadline_exceeded"
    assert "0.8 s" in error.detail
    assert error.usage is not None, "what was billed before the deadline is kept"
    assert time.monotonic() - started < TRICKLE_WOULD_TAKE_S / 2


def test_the_deadline_covers_retries_before_the_stream(fake_anthropic):
    fake_anthropic.enqueue(*[Reply.error(529, retry_after=0.3)] * 10)

    async def stream_with_retries():
        async with make_async_client(timeout=5, max_retries=8) as client:
            return await collect(astream_structured(**call_kwargs(client, deadline_s=0.5)))

    error = failure_of(lambda: run(stream_with_retries()))
    assert error.code == "deadline_exceeded"
    assert len(fake_anthropic.message_requests) < 9


def test_its_sync_twin_stops_retrying_at_the_deadline(fake_anthropic):
    fake_anthropic.enqueue(*[Reply.error(529, retry_after=0.3)] * 10)
    with make_client(timeout=5, max_retries=8) as client:
        error = failure_of(lambda: call_structured(**call_kwargs(client, deadline_s=0.5)))
    assert error.code == "deadline_exceeded"
    assert len(fake_anthropic.message_requests) < 9


def test_its_sync_twin_gives_a_silent_server_only_the_time_left(fake_anthropic):
    """The per-read timeout is 5 s, which the 3 s silence would pass; the whole call may
    take only 0.5 s, so the attempt times out and no retry starts after the deadline."""
    fake_anthropic.enqueue(Reply.json(valid_reply(), latency_ms=3000), Reply.json(valid_reply()))
    with make_client(timeout=5, max_retries=2) as client:
        error = failure_of(lambda: call_structured(**call_kwargs(client, deadline_s=0.5)))
    assert error.code == "deadline_exceeded"
    assert len(fake_anthropic.message_requests) == 1


def test_it_ends_a_trickling_plain_reply_at_the_deadline(fake_anthropic):
    fake_anthropic.enqueue(Reply.trickle_of(TRICKLE, every_ms=TRICKLE_MS))
    started = time.monotonic()
    error = failure_of(lambda: run(acall(deadline_s=DEADLINE_S)))
    assert error.code == "deadline_exceeded"
    assert time.monotonic() - started < TRICKLE_WOULD_TAKE_S / 2


def test_its_sync_twin_ends_a_trickling_reply_at_the_deadline(fake_anthropic):
    fake_anthropic.enqueue(Reply.trickle_of(TRICKLE, every_ms=TRICKLE_MS))
    started = time.monotonic()
    with make_client(timeout=5, max_retries=0) as client:
        error = failure_of(lambda: call_structured(**call_kwargs(client, deadline_s=DEADLINE_S)))
    assert error.code == "deadline_exceeded"
    assert time.monotonic() - started < TRICKLE_WOULD_TAKE_S / 2


def test_it_refuses_a_plain_reply_past_the_size_limit(fake_anthropic):
    fake_anthropic.enqueue(Reply.huge(50_000, step=2))
    error = failure_of(lambda: run(acall(max_reply_chars=10_000)))
    assert error.code == "too_large"
    assert len(error.raw_text) == 10_000
    assert error.usage is not None


def test_its_sync_twin_stops_reading_a_body_past_the_byte_limit(fake_anthropic):
    fake_anthropic.enqueue(Reply.huge(2_000_000, step=2))
    with make_client(timeout=5, max_retries=0) as client:
        error = failure_of(lambda: call_structured(**call_kwargs(client, max_reply_chars=1_000)))
    assert error.code == "too_large"


def test_its_sync_twin_still_answers_a_good_reply(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply("Fine.")))
    with make_client(timeout=5, max_retries=0) as client:
        reply = call_structured(**call_kwargs(client))
    assert reply.parsed.assistantText == "Fine."
    assert reply.request_id and reply.usage.output_tokens > 0


def test_a_slow_consumer_does_not_trip_the_deadline_of_a_finished_read(fake_anthropic):
    """The deadline wraps each read, never the caller's own awaits between items."""
    fake_anthropic.enqueue(Reply.json(valid_reply("One two three four five."), chunk_chars=4))

    async def slow_consumer():
        async with make_async_client(timeout=5, max_retries=0) as client:
            items = []
            async for item in astream_structured(**call_kwargs(client, deadline_s=5)):
                items.append(item)
                await asyncio.sleep(0.01)
            return items

    assert isinstance(run(slow_consumer())[-1], StreamDone)


@settings(max_examples=100, deadline=None)
@given(
    value=st.text(),
    other=st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=30),
    ensure_ascii=st.booleans(),
)
def test_the_reader_decodes_the_same_text_however_the_reply_is_cut(
    value, other, cuts, ensure_ascii
):
    doc = json.dumps({**other, "assistantText": value}, ensure_ascii=ensure_ascii)
    points = sorted({min(cut, len(doc)) for cut in cuts})
    pieces = [doc[a:b] for a, b in zip([0, *points], [*points, len(doc)], strict=True)]
    reader = StringFieldReader("assistantText")
    decoded = "".join(reader.feed(piece) for piece in pieces)
    assert decoded == value
    assert reader.complete
