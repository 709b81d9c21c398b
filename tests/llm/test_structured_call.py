"""acall_structured / call_structured through the real SDK to the fake server."""

import asyncio
import time

import anthropic
import pytest
from django.conf import settings

from llm import (
    LLMError,
    Usage,
    acall_structured,
    call_structured,
    cost_usd,
    make_async_client,
    make_client,
    request_hash,
)
from tests.fakes.anthropic_server import Reply
from tests.llm.support import MESSAGES, MODEL, SYSTEM, CoachReply, call_kwargs, run, valid_reply


async def acall(*, max_retries=2, timeout=5.0, **overrides):
    client = make_async_client(timeout=timeout, max_retries=max_retries)
    async with client:
        return await acall_structured(**call_kwargs(client, **overrides))


def failure(**kwargs) -> LLMError:
    with pytest.raises(LLMError) as caught:
        run(acall(**kwargs))
    return caught.value


def test_it_returns_the_validated_object_with_usage_cost_and_latency(fake_anthropic):
    usage = {
        "input_tokens": 1200,
        "output_tokens": 80,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 3000,
    }
    fake_anthropic.enqueue(Reply.json(valid_reply(), usage=usage))

    reply = run(acall())

    assert reply.parsed == CoachReply.model_validate(valid_reply())
    assert reply.usage == Usage(
        input_tokens=1200,
        output_tokens=80,
        cache_creation_input_tokens=0,
        cache_read_input_tokens=3000,
    )
    assert reply.cost_usd == cost_usd(model=MODEL, usage=reply.usage, prices=settings.LLM_PRICES)
    assert reply.cost_usd > 0
    assert reply.model == MODEL
    assert reply.stop_reason == "end_turn"
    assert reply.latency_ms > 0
    assert reply.request_id is not None
    assert CoachReply.model_validate_json(reply.raw_text) == reply.parsed
    assert reply.request_hash == request_hash(
        model=MODEL, system=SYSTEM, messages=MESSAGES, output_model=CoachReply, max_tokens=400
    )


def test_it_sends_a_cacheable_system_block_and_the_output_schema(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply()))
    run(acall())

    (request,) = fake_anthropic.message_requests
    assert request.body["system"] == [
        {"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}
    ]
    assert request.body["model"] == MODEL
    assert request.body["max_tokens"] == 400
    assert request.body["messages"] == MESSAGES
    assert not request.streamed
    schema = request.output_schema
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"assistantText", "proposal", "step"}
    assert request.headers["authorization"].startswith("Bearer ")


def test_it_sends_the_same_schema_as_the_sdks_own_parse(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply()), Reply.json(valid_reply()))
    run(acall())
    with anthropic.Anthropic(max_retries=0) as client:
        client.messages.parse(
            model=MODEL, max_tokens=400, messages=MESSAGES, output_format=CoachReply
        )

    ours, sdks = fake_anthropic.message_requests
    assert ours.body["output_config"] == sdks.body["output_config"]


def test_it_can_leave_the_system_prompt_uncached(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply()))
    run(acall(cache_system=False))
    (request,) = fake_anthropic.message_requests
    assert request.body["system"] == [{"type": "text", "text": SYSTEM}]


def test_it_leaves_out_an_empty_system_prompt(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply()))
    run(acall(system=""))
    (request,) = fake_anthropic.message_requests
    assert "system" not in request.body


def test_it_reads_the_cache_on_the_second_call_with_the_same_system(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply()), Reply.json(valid_reply()))
    first, second = run(acall()), run(acall())
    assert first.usage.cache_creation_input_tokens > 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens
    assert second.cost_usd < first.cost_usd


def test_it_retries_a_rate_limit_then_succeeds(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(429), Reply.json(valid_reply()))
    reply = run(acall(max_retries=2))
    assert reply.parsed.step == 2
    assert len(fake_anthropic.message_requests) == 2


def test_it_gives_up_on_overload_after_the_retry_budget(fake_anthropic):
    fake_anthropic.enqueue(*[Reply.error(529)] * 5)
    error = failure(max_retries=2)
    assert error.code == "call_failed"
    assert error.status_code == 529
    assert len(fake_anthropic.message_requests) == 1 + 2
    assert error.usage is None


def test_it_reports_a_server_error_as_call_failed(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(500), Reply.error(500))
    error = failure(max_retries=1)
    assert (error.code, error.status_code) == ("call_failed", 500)
    assert len(fake_anthropic.message_requests) == 2


def test_it_does_not_retry_a_bad_request(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(400, message="messages: bad"), Reply.json(valid_reply()))
    error = failure(max_retries=2)
    assert (error.code, error.status_code) == ("call_failed", 400)
    assert "messages: bad" in error.detail
    assert len(fake_anthropic.message_requests) == 1


def test_it_reports_a_timeout_as_call_failed(fake_anthropic):
    # The reply would come after 6 s; the call gives up after 0.3 s. The bound is far
    # from both, so a loaded machine cannot make it fail and a missed timeout cannot pass.
    fake_anthropic.enqueue(Reply.json(valid_reply(), latency_ms=6000))
    started = time.perf_counter()
    error = failure(max_retries=0, timeout=0.3)
    assert error.code == "call_failed"
    assert "Timeout" in error.detail
    assert time.perf_counter() - started < 5


def test_it_reports_a_cut_body_as_call_failed_after_retrying(fake_anthropic):
    fake_anthropic.enqueue(Reply.cut(valid_reply(), after_chars=30), Reply.json(valid_reply()))
    reply = run(acall(max_retries=1))
    assert reply.parsed.step == 2
    assert len(fake_anthropic.message_requests) == 2


def test_it_rejects_malformed_json_with_usage_and_raw_text(fake_anthropic):
    fake_anthropic.enqueue(Reply.json('{"assistantText": "hi", oops'))
    error = failure()
    assert error.code == "validation_failed"
    assert error.raw_text == '{"assistantText": "hi", oops'
    assert error.usage is not None and error.usage.output_tokens > 0
    assert error.cost_usd == cost_usd(model=MODEL, usage=error.usage, prices=settings.LLM_PRICES)


def test_it_rejects_json_that_fails_the_model(fake_anthropic):
    fake_anthropic.enqueue(Reply.json({"assistantText": "hi", "proposal": None, "step": 9}))
    error = failure()
    assert error.code == "validation_failed"
    assert "step" in error.detail


def test_it_calls_a_max_tokens_stop_truncated_even_when_the_json_is_broken(fake_anthropic):
    fake_anthropic.enqueue(Reply.json('{"assistantText": "a long', stop_reason="max_tokens"))
    error = failure()
    assert error.code == "truncated"
    assert error.raw_text == '{"assistantText": "a long'
    assert error.usage is not None


def test_it_rejects_a_reply_without_text(fake_anthropic):
    fake_anthropic.enqueue(Reply.empty())
    error = failure()
    assert error.code == "validation_failed"
    assert error.raw_text is None


def test_it_rejects_a_refusal(fake_anthropic):
    fake_anthropic.enqueue(Reply.json(valid_reply(), stop_reason="refusal"))
    assert failure().code == "validation_failed"


def test_its_sync_twin_behaves_the_same(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(429), Reply.json(valid_reply()), Reply.json("not json"))
    with make_client(timeout=5, max_retries=2) as client:
        reply = call_structured(**call_kwargs(client))
        with pytest.raises(LLMError) as caught:
            call_structured(**call_kwargs(client))
    assert reply.parsed.step == 2
    assert reply.cost_usd > 0
    assert caught.value.code == "validation_failed"
    assert len(fake_anthropic.message_requests) == 3


def test_it_runs_eighty_calls_concurrently_on_one_client(fake_anthropic):
    """Debates fan out persona calls with gather; replies must match their prompts."""
    fake_anthropic.latency_ms = 100
    fake_anthropic.responder = lambda body: Reply.json(
        valid_reply(text="echo " + body["system"][0]["text"])
    )
    count = 80

    async def fan_out():
        async with make_async_client(timeout=10, max_retries=0) as client:
            return await asyncio.gather(
                *(
                    acall_structured(**call_kwargs(client, system=f"persona {i}"))
                    for i in range(count)
                )
            )

    started = time.perf_counter()
    replies = run(fan_out())
    elapsed = time.perf_counter() - started

    assert [r.parsed.assistantText for r in replies] == [f"echo persona {i}" for i in range(count)]
    assert len(fake_anthropic.message_requests) == count
    assert elapsed < count * 0.100 / 4, f"{count} calls took {elapsed:.2f}s: not concurrent"
