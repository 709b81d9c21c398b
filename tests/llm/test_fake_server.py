"""The fake server's own promises, which other test suites rely on."""

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from pydantic import BaseModel

from llm import call_structured, make_client
from llm.request import output_schema
from tests.fakes.anthropic_server import Reply
from tests.fakes.anthropic_wire import example_for_schema
from tests.llm.support import CoachReply, call_kwargs, valid_reply

REPO_ROOT = Path(__file__).resolve().parents[2]


def post(url, body, headers=None):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def test_it_counts_tokens(fake_anthropic):
    status, _, body = post(
        fake_anthropic.base_url + "/v1/messages/count_tokens",
        {"model": "m", "messages": [{"role": "user", "content": "hello there"}]},
        {"x-api-key": "k"},
    )
    assert status == 200
    assert body["input_tokens"] > 0


def test_it_requires_an_api_key_header(fake_anthropic):
    fake_anthropic.enqueue(Reply.json("unused"))
    status, _, body = post(
        fake_anthropic.base_url + "/v1/messages",
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
    )
    assert status == 401
    assert body["error"]["type"] == "authentication_error"
    assert fake_anthropic.pending == 1, "a rejected request does not consume a scripted reply"


def test_it_accepts_x_api_key_and_answers_in_the_documented_shape(fake_anthropic):
    fake_anthropic.enqueue(Reply.json("Hello", usage={"input_tokens": 10, "output_tokens": 5}))
    status, headers, body = post(
        fake_anthropic.base_url + "/v1/messages",
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
        {"x-api-key": "k"},
    )
    assert status == 200
    assert body["content"] == [{"type": "text", "text": "Hello"}]
    assert (body["stop_reason"], body["usage"]["output_tokens"]) == ("end_turn", 5)
    assert headers["request-id"]


def test_it_sends_the_documented_error_json_with_a_fast_retry_after(fake_anthropic):
    fake_anthropic.enqueue(Reply.error(429))
    status, headers, body = post(
        fake_anthropic.base_url + "/v1/messages",
        {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
        {"authorization": "Bearer k"},
    )
    assert status == 429
    assert body["type"] == "error" and body["error"]["type"] == "rate_limit_error"
    assert headers["retry-after"] == "0"
    assert float(headers["retry-after-ms"]) > 0


def test_it_fails_loudly_without_a_script(fake_anthropic):
    with make_client(timeout=5, max_retries=2) as client, pytest.raises(Exception) as caught:
        call_structured(**call_kwargs(client))
    assert "no reply scripted" in str(caught.value)
    assert len(fake_anthropic.message_requests) == 1, "told the SDK not to retry"


def test_it_builds_schema_instances_for_unscripted_runs():
    class Item(BaseModel):
        name: str
        tags: list[str]

    class Turn(BaseModel):
        assistantText: str  # noqa: N815
        items: list[Item]
        kind: str | None
        step: int

    example = example_for_schema(output_schema(Turn))
    assert Turn.model_validate(example).items[0].tags == ["example text"]


def test_it_runs_as_a_process_with_a_script(tmp_path, monkeypatch):
    script = tmp_path / "replies.json"
    script.write_text(json.dumps([{"kind": "json", "content": valid_reply("scripted")}]))
    command = [sys.executable, "-m", "tests.fakes.anthropic_server", "--script", str(script)]
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    with subprocess.Popen(
        command, cwd=REPO_ROOT, stdout=subprocess.PIPE, text=True, env=environment
    ) as process:
        try:
            base_url = process.stdout.readline().strip().rsplit(" ", 1)[-1]
            assert base_url.startswith("http://127.0.0.1:")
            monkeypatch.setenv("ANTHROPIC_BASE_URL", base_url)
            monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
            with make_client(timeout=5, max_retries=0) as client:
                scripted = call_structured(**call_kwargs(client))
                generated = call_structured(**call_kwargs(client))
        finally:
            process.terminate()
            process.wait(timeout=10)
    assert scripted.parsed.assistantText == "scripted"
    assert isinstance(generated.parsed, CoachReply), "unscripted: an instance of the schema"
    assert process.returncode == 0, "SIGTERM stops it cleanly"


def test_it_serves_a_pydantic_object_as_its_json(fake_anthropic):
    expected = CoachReply(assistantText="from a model", proposal="p", step=3)
    fake_anthropic.enqueue(Reply.json(expected))
    with make_client(timeout=5, max_retries=0) as client:
        assert call_structured(**call_kwargs(client)).parsed == expected


def test_it_turns_a_broken_responder_into_a_visible_error(fake_anthropic):
    def responder(body):
        raise KeyError("no such persona")

    fake_anthropic.responder = responder
    with make_client(timeout=5, max_retries=2) as client, pytest.raises(Exception) as caught:
        call_structured(**call_kwargs(client))
    assert "no such persona" in str(caught.value)
    assert len(fake_anthropic.message_requests) == 1
