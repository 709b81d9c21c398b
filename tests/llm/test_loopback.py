"""llm.loopback: what the demo's scripted model and the tests' fake server share."""

from __future__ import annotations

import anthropic

from llm.loopback import LoopbackHandler, LoopbackServer, PromptCache, estimate_tokens


def test_it_bills_a_cached_system_prompt_written_once_then_read():
    cache = PromptCache()
    body = {
        "system": [
            {"type": "text", "text": "x" * 400, "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "y" * 40},
        ],
        "messages": [{"role": "user", "content": "hi"}],
    }
    first, second = cache.usage(body, "abcd" * 5), cache.usage(body, "")
    assert first["cache_creation_input_tokens"] == 100 and first["cache_read_input_tokens"] == 0
    assert second["cache_creation_input_tokens"] == 0 and second["cache_read_input_tokens"] == 100
    assert first["output_tokens"] == 5 and second["output_tokens"] == 1
    assert first["input_tokens"] == estimate_tokens(
        "y" * 40 + '[{"role": "user", "content": "hi"}]'
    )
    cache.clear()
    assert cache.usage(body, "")["cache_creation_input_tokens"] == 100


class _Echo(LoopbackHandler):
    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_json(200, {"echo": self.server.owner.word}, {"request-id": "req_1"})


class _EchoServer(LoopbackServer):
    word = "hello"


def test_it_serves_its_handler_until_stopped_and_the_sdk_reads_the_answer():
    with _EchoServer(_Echo) as server:
        client = anthropic.Anthropic(api_key="k", base_url=server.base_url, max_retries=0)
        answer = client.post("/anything", cast_to=object, body={})
        assert answer == {"echo": "hello"}
        port = server.port
    assert server._httpd is None and port > 0
