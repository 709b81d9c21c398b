"""Model text no database can store (NUL, lone surrogates) is cleaned at llm/'s boundary."""

from __future__ import annotations

import pytest

from llm import (
    LLMError,
    StreamDone,
    TextDelta,
    acall_structured,
    astream_structured,
    make_async_client,
)
from tests.fakes.anthropic_server import Reply
from tests.llm.support import call_kwargs, collect, run, valid_reply

HOSTILE = "Cities\x00 should\ud800 ban cars"
CLEANED = "Cities should\ufffd ban cars"


async def call():
    async with make_async_client(timeout=5.0, max_retries=0) as client:
        return await acall_structured(**call_kwargs(client))


async def stream():
    async with make_async_client(timeout=5.0, max_retries=0) as client:
        return await collect(astream_structured(**call_kwargs(client)))


def assert_storable(text: str) -> None:
    assert "\x00" not in text and "\\u0000" not in text and "\\ud800" not in text
    text.encode("utf-8")  # no lone surrogate


@pytest.mark.parametrize("escaped", [True, False], ids=["json-escapes", "raw-characters"])
def test_it_cleans_a_replys_text_and_parsed_fields(fake_anthropic, escaped: bool) -> None:
    # json.dumps writes the JSON escapes \u0000 and \ud800; a str goes out verbatim.
    reply = valid_reply(HOSTILE)
    fake_anthropic.enqueue(Reply.json(reply if escaped else _verbatim(reply)))

    result = run(call())

    assert result.parsed.assistantText == CLEANED
    assert_storable(result.raw_text)


def test_it_cleans_streamed_deltas_and_the_final_reply(fake_anthropic) -> None:
    fake_anthropic.enqueue(Reply.json(valid_reply(HOSTILE), chunk_chars=3))

    *deltas, done = run(stream())

    assert all(isinstance(delta, TextDelta) and delta.added for delta in deltas)
    assert_storable("".join(delta.added for delta in deltas))
    assert isinstance(done, StreamDone) and done.reply.parsed.assistantText == CLEANED


def test_it_cleans_the_raw_text_of_a_rejected_reply(fake_anthropic) -> None:
    fake_anthropic.enqueue(Reply.json('{"assistantText": "cut\x00 short\ud800'))

    with pytest.raises(LLMError) as caught:
        run(call())

    assert caught.value.code == "validation_failed"
    assert_storable(caught.value.raw_text)


def _verbatim(reply: dict) -> str:
    # The reply's JSON with the characters themselves in its strings, not escapes.
    text, step = reply["assistantText"], reply["step"]
    return f'{{"assistantText": "{text}", "proposal": null, "step": {step}}}'
