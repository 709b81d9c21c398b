"""A misbehaving model stream: bounded bytes, a plain message, an end, and a server that still answers.

Real SDK, real HTTP, the fake Anthropic server scripting the misbehaviour
(tests/fakes: ``Reply.huge``, ``Reply.trickle_of``).
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from typing import Any

import pytest
from django.test import Client

from coach.models import Argument, CoachTurn
from coach.views import _client_strings
from tests.coach.support import coach_result
from tests.coach.test_turn_ai import assert_failed_turn, draft_of, send
from tests.coach.test_turn_ai import drafted as drafted  # noqa: PLC0414 - a fixture
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

MEGABYTE = 1_000_000


def ndjson_bytes(lines: list[dict]) -> int:
    """What the endpoint wrote: one JSON line each (as coach.api encodes them)."""
    return sum(len((json.dumps(line, ensure_ascii=False) + "\n").encode()) for line in lines)


def test_it_sends_the_browser_o_of_the_reply_for_a_megabyte_reply(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument, settings: Any
) -> None:
    """Each delta carries only the new characters: about one copy of the reply, not n²."""
    settings.LLM_MAX_REPLY_CHARS = 2 * MEGABYTE
    fake_anthropic.enqueue(Reply.huge(MEGABYTE, step="claim", chunk_chars=1000))
    status, lines = send(student, argument)
    assert status == 200
    streamed = "".join(line["text"] for line in lines if line.get("type") == "delta")
    assert 0 < len(streamed) <= MEGABYTE, "no character was sent twice"
    assert streamed == Reply.huge(len(streamed)).text[len('{"assistantText": "') :][: len(streamed)]
    # One copy of the reply plus a little per line; the old whole-text deltas
    # sent hundreds of copies.
    assert ndjson_bytes(lines) < 1.1 * MEGABYTE + 20_000
    # The contract's field cap still refuses a megabyte of assistantText.
    assert lines[-1]["error"] == "coach_validation_failed"


def test_it_cuts_an_oversized_reply_and_says_so_in_plain_words(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument, settings: Any
) -> None:
    settings.LLM_MAX_REPLY_CHARS = 20_000
    before = draft_of(drafted)
    fake_anthropic.enqueue(Reply.huge(400_000, step="claim", chunk_chars=500))
    status, lines = send(student, drafted)
    assert status == 200
    assert_failed_turn(drafted, lines, "coach_reply_too_long", before)
    assert ndjson_bytes(lines) < 30_000
    turn = CoachTurn.objects.get()
    assert len(turn.raw_result["raw_text"]) == 20_000  # instructors see where it was cut
    sentence = str(_client_strings()["errors"]["coach_reply_too_long"])
    assert "kept" in sentence and "too_large" not in sentence


def test_it_ends_a_trickling_reply_at_the_deadline(
    fake_anthropic: FakeAnthropicServer, student: Any, drafted: Argument, settings: Any
) -> None:
    settings.LLM_DEADLINE_SECONDS = 1.0
    before = draft_of(drafted)
    reply = coach_result(text="One character every fifth of a second, for as long as it takes.")
    fake_anthropic.enqueue(Reply.trickle_of(reply, every_ms=200))
    started = time.monotonic()
    status, lines = send(student, drafted)
    assert status == 200
    assert_failed_turn(drafted, lines, "coach_timed_out", before)
    would_take_s = len(json.dumps(reply)) * 0.2
    assert time.monotonic() - started < would_take_s / 2
    assert "took too long" in str(_client_strings()["errors"]["coach_timed_out"])


# --- the server keeps answering while a bad stream runs ----------------------------


class _Turn(threading.Thread):
    """POST one coach turn and read its NDJSON as it arrives, noting when it ends."""

    def __init__(self, port: int, cookies: str, body: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.port, self.cookies, self.body = port, cookies, body
        self.first_delta = threading.Event()
        self.ended_at: float | None = None
        self.lines: list[dict] = []

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request(
            "POST",
            "/api/coach",
            body=json.dumps(self.body),
            headers={
                "Content-Type": "application/json",
                "Cookie": self.cookies,
                "X-CSRFToken": "a" * 32,
            },
        )
        response = conn.getresponse()
        for raw in response:
            if raw.strip():
                self.lines.append(json.loads(raw))
                if self.lines[-1].get("type") == "delta":
                    self.first_delta.set()
        self.ended_at = time.monotonic()
        self.first_delta.set()
        conn.close()


@pytest.mark.slow
def test_healthz_answers_while_a_huge_reply_streams_in_tiny_pieces(
    live_asgi: Any,
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    settings: Any,
) -> None:
    settings.LLM_MAX_REPLY_CHARS = 2 * MEGABYTE
    # 300,000 characters in 12-character pieces, as fast as they go: 25,000 events.
    fake_anthropic.enqueue(Reply.huge(300_000, step="claim", chunk_chars=12))
    browser = Client()
    browser.force_login(student)
    cookies = f"sessionid={browser.cookies['sessionid'].value}; csrftoken={'a' * 32}"
    port = int(live_asgi.url.rsplit(":", 1)[1])
    turn = _Turn(port, cookies, {"argument_id": argument.pk, "message": "", "step": "claim"})
    turn.start()
    assert turn.first_delta.wait(60), "the bad stream started"
    answered: list[float] = []
    for _ in range(5):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 200
        answered.append(time.monotonic())
        conn.close()
    turn.join(120)
    assert turn.ended_at is not None, "the bad stream ended"
    assert all(at < turn.ended_at for at in answered), "healthz answered during the stream"
    assert turn.lines[-1].get("error") == "coach_validation_failed"
