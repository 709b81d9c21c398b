"""astream_structured through the real SDK's SSE stream to the fake server."""

import json

import pytest
from django.conf import settings

from llm import (
    LLMError,
    StreamDone,
    TextDelta,
    astream_structured,
    cost_usd,
    make_async_client,
)
from tests.fakes.anthropic_server import Reply
from tests.llm.support import MODEL, CoachReply, call_kwargs, collect, run, valid_reply

LONG_TEXT = 'Claims need "grounds": facts, data \u2014 or a story \U0001f600. ' * 4


async def stream_all(*, max_retries=2, timeout=5.0, **overrides):
    async with make_async_client(timeout=timeout, max_retries=max_retries) as client:
        return await collect(astream_structured(**call_kwargs(client, **overrides)))


def stream_failure(**kwargs) -> LLMError:
    with pytest.raises(LLMError) as caught:
        run(stream_all(**kwargs))
    return caught.value


def test_it_yields_growing_text_then_the_validated_reply(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply(LONG_TEXT), chunk_chars=7))

    items = run(stream_all())

    *deltas, done = items
    assert isinstance(done, StreamDone)
    assert done.reply.parsed == CoachReply.model_validate(valid_reply(LONG_TEXT))
    assert len(deltas) > 10
    assert all(isinstance(delta, TextDelta) for delta in deltas)
    assert all(delta.added for delta in deltas)
    assert "".join(delta.added for delta in deltas) == LONG_TEXT
    reply = done.reply
    assert reply.stop_reason == "end_turn"
    assert reply.usage.output_tokens > 1
    assert reply.cost_usd == cost_usd(model=MODEL, usage=reply.usage, prices=settings.LLM_PRICES)
    assert 0 < reply.first_text_ms <= reply.latency_ms
    (request,) = fake_anthropic.message_requests
    assert request.streamed
    assert request.body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert request.output_schema["title"] == "CoachReply"


def test_it_streams_another_text_field_when_asked(fake_anthropic):
    fake_anthropic.enqueue(Reply.json({**valid_reply(), "proposal": "Cars pollute."}))
    *deltas, done = run(stream_all(text_field="proposal"))
    assert "".join(d.added for d in deltas) == "Cars pollute." == done.reply.parsed.proposal


def test_it_retries_before_the_stream_starts(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(529), Reply.json(valid_reply()))
    *_, done = run(stream_all(max_retries=1))
    assert done.reply.parsed.step == 2
    assert len(fake_anthropic.message_requests) == 2


def test_it_reports_a_failure_before_the_stream_as_call_failed(fake_anthropic):
    fake_anthropic.enqueue(*[Reply.error(429)] * 3)
    error = stream_failure(max_retries=2)
    assert (error.code, error.status_code) == ("call_failed", 429)
    assert len(fake_anthropic.message_requests) == 3


@pytest.mark.parametrize("framing", ["chunked", "close"])
def test_it_reports_a_cut_stream_as_stream_failed_with_what_arrived(fake_anthropic, framing):
    """Chunked: the HTTP layer raises. Close-delimited: the SDK sees no stop_reason."""
    text = json.dumps(valid_reply(LONG_TEXT))
    fake_anthropic.enqueue(Reply.cut(text, after_chars=60, framing=framing, chunk_chars=10))

    error = stream_failure(max_retries=2)

    assert error.code == "stream_failed"
    assert error.raw_text == text[:60]
    assert error.usage is not None and error.usage.input_tokens > 0
    assert error.cost_usd is not None and error.cost_usd > 0
    assert len(fake_anthropic.message_requests) == 1, "a broken stream is not retried"


def test_it_still_yields_the_text_that_arrived_before_a_cut(fake_anthropic):
    text = json.dumps(valid_reply(LONG_TEXT))
    fake_anthropic.enqueue(Reply.cut(text, after_chars=80, chunk_chars=10))
    seen: list[TextDelta] = []

    async def consume():
        async with make_async_client(timeout=5, max_retries=0) as client:
            async for item in astream_structured(**call_kwargs(client)):
                seen.append(item)

    with pytest.raises(LLMError, match="stream_failed"):
        run(consume())
    assert seen
    assert LONG_TEXT.startswith("".join(delta.added for delta in seen))


def test_it_reports_an_error_event_as_stream_failed(fake_anthropic):
    fake_anthropic.enqueue(Reply.stream_error(valid_reply(), after_chars=30))
    error = stream_failure()
    assert error.code == "stream_failed"
    assert "overloaded_error" in error.detail
    assert len(fake_anthropic.message_requests) == 1


@pytest.mark.parametrize(
    "garbage",
    [
        b"event: content_block_delta\ndata: {not json\n\n",
        b"event: content_block_delta\ndata: \xff\xfe\n\n",
    ],
    ids=["not JSON", "not UTF-8"],
)
def test_it_reports_an_unreadable_event_as_stream_failed_with_what_arrived(fake_anthropic, garbage):
    text = json.dumps(valid_reply(LONG_TEXT))
    fake_anthropic.enqueue(Reply.garbled(text, after_chars=40, garbage=garbage))

    error = stream_failure()

    assert error.code == "stream_failed"
    assert error.raw_text == text[:40]
    assert error.usage is not None and error.usage.input_tokens > 0
    assert len(fake_anthropic.message_requests) == 1


def test_it_reports_a_max_tokens_stop_as_truncated(fake_anthropic):
    fake_anthropic.enqueue(Reply.json('{"assistantText": "It depends on', stop_reason="max_tokens"))
    error = stream_failure()
    assert error.code == "truncated"
    assert error.raw_text == '{"assistantText": "It depends on'


def test_it_validates_the_final_json(fake_anthropic):
    fake_anthropic.enqueue(Reply.json({"assistantText": "hi", "proposal": None}))
    error = stream_failure()
    assert error.code == "validation_failed"
    assert error.raw_text == '{"assistantText": "hi", "proposal": null}'


def test_it_rejects_a_stream_without_text(fake_anthropic):
    fake_anthropic.enqueue(Reply.empty())
    assert stream_failure().code == "validation_failed"


def test_it_lets_the_consumer_stop_early_and_reuse_the_client(fake_anthropic):
    """The coach's browser may leave mid-reply: closing must free the connection."""
    fake_anthropic.enqueue(
        Reply.json(valid_reply(LONG_TEXT), chunk_chars=5, chunk_delay_ms=20),
        Reply.json(valid_reply()),
    )

    async def leave_then_ask_again():
        async with make_async_client(timeout=5, max_retries=0) as client:
            stream = astream_structured(**call_kwargs(client))
            first = await anext(stream)
            await stream.aclose()
            items = await collect(astream_structured(**call_kwargs(client)))
            return first, items[-1]

    first, done = run(leave_then_ask_again())
    assert isinstance(first, TextDelta)
    assert done.reply.parsed.step == 2


def test_it_sends_the_shared_schema_without_changing_it(fake_anthropic):
    """The request carries the cached schema itself (no copy per call): the SDK must not touch it."""
    from anthropic import transform_schema

    from llm.request import cached_schema

    fake_anthropic.enqueue(Reply.json(valid_reply()))
    run(stream_all())
    (request,) = fake_anthropic.message_requests
    assert request.output_schema == cached_schema(CoachReply) == transform_schema(CoachReply)


def test_it_reads_events_that_leave_fields_out(fake_anthropic):
    """Events are read as plain JSON: a missing usage or delta counts as absent, not a crash."""
    from llm.streaming import _Reply

    reply = _Reply(
        text_field="assistantText", request=call_kwargs(None, max_reply_chars=100)["request"]
    )
    assert reply.add({"type": "message_start", "message": {}}) == ""
    assert reply.add({"type": "content_block_start", "content_block": {"type": "text"}}) == ""
    assert reply.add({"type": "content_block_delta", "delta": {"type": "text_delta"}}) == ""
    assert reply.add({"type": "message_delta", "usage": {"output_tokens": 7}}) == ""
    assert reply.add("ping") == ""
    assert (reply.started, reply.stop_reason, reply.usage.output_tokens) == (True, None, 7)


def test_it_sends_the_body_the_sdk_would_send_as_json(fake_anthropic):
    from anthropic._utils._json import openapi_dumps

    from llm.structured import prepare_call

    messages = [{"role": "user", "content": LONG_TEXT}]
    fake_anthropic.enqueue(Reply.json(valid_reply()))
    run(stream_all(messages=messages))
    (request,) = fake_anthropic.message_requests
    params, _ = prepare_call(call_kwargs(None, messages=messages)["request"])
    assert request.body == json.loads(openapi_dumps({**params, "stream": True}))
    assert request.headers["content-type"] == "application/json"


def test_it_leaves_the_request_hash_out_of_a_streamed_reply(fake_anthropic):
    # Nothing replays a streamed reply from a ledger; hashing its prompt cost a turn's CPU.
    fake_anthropic.enqueue(Reply.json(valid_reply()))
    *_, done = run(stream_all())
    assert done.reply.request_hash == ""
