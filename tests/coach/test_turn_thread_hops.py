"""A coach turn through the site's ASGI application (Django's handler): how often it crosses
between the event loop and a thread (a budget, not a count: a crossing is a thread wake-up
and a wait in the loop's queue), and that it gives its database connections back once."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest
from asgiref import sync
from django.core.signals import request_finished
from django.test import Client

from coach.models import Argument, CoachTurn
from tests.coach.support import coach_result
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "k" * 32


@pytest.fixture
def crossings(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every sync_to_async and async_to_sync call from now on."""
    seen: Counter[str] = Counter()
    to_thread, to_loop = sync.SyncToAsync.__call__, sync.AsyncToSync.__call__

    def counted_to_thread(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["to a thread"] += 1
        return to_thread(self, *args, **kwargs)

    def counted_to_loop(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["to the loop"] += 1
        return to_loop(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted_to_thread)
    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted_to_loop)
    return seen


async def _asgi_post(application: Any, path: str, body: bytes, cookies: str) -> tuple[int, bytes]:
    headers = [
        (b"host", b"testserver"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"cookie", cookies.encode()),
        (b"x-csrftoken", CSRF.encode()),
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent, answered, messages = False, asyncio.Event(), []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    await application(scope, receive, send)
    return messages[0]["status"], b"".join(m.get("body", b"") for m in messages[1:])


# Crossings a turn may make through Django's handler: request_started, the middleware
# above the first sync-only one (the chain runs in one thread from there), the view, the
# turn's save, the response's close. A turn made 8 when this was written; a crossing per
# line streamed or per step of the transcript would pass this at once.
MAX_CROSSINGS = 12


def _turn(application: Any, student: Any, argument: Argument) -> tuple[int, list[dict]]:
    client = Client()
    client.force_login(student)
    cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"
    body = json.dumps({"argument_id": argument.pk, "message": "Ban cars.", "step": "claim"})
    status, reply = asyncio.run(_asgi_post(application, "/api/coach", body.encode(), cookies))
    return status, [json.loads(line) for line in reply.splitlines()]


def test_it_crosses_into_threads_a_bounded_number_of_times_however_long_the_reply(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    crossings: Counter[str],
    settings: Any,
) -> None:
    from config.asgi import application  # the site's handler, built with the test settings

    settings.ALLOWED_HOSTS = ["testserver"]
    counted = []
    for text, chunk_delay_ms in (("Which cities?", None), ("Which cities? " * 8, 60)):
        # The long reply comes in pieces further apart than the page's delta pacing: one
        # NDJSON line each.
        fake_anthropic.enqueue(
            Reply.json(
                coach_result(text=text, confidence=0.5),
                chunk_chars=20,
                chunk_delay_ms=chunk_delay_ms,
            )
        )
        crossings.clear()
        status, lines = _turn(application, student, argument)
        assert status == 200, lines
        assert lines[-1]["type"] == "result"
        counted.append((sum(line.get("type") == "delta" for line in lines), dict(crossings)))
    (short_deltas, short), (long_deltas, long) = counted
    assert long_deltas > short_deltas + 3, counted
    assert long == short, counted
    assert sum(short.values()) <= MAX_CROSSINGS, short


@pytest.mark.parametrize("model_reply", ["an answer", "a broken stream"])
def test_it_finishes_the_request_once_whether_the_turn_succeeds_or_fails(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    settings: Any,
    model_reply: str,
) -> None:
    # Django closes the response once its last line is sent: request_finished (the database
    # connections go back) comes once, after the turn's last save, whichever way it ended.
    from config.asgi import application

    settings.ALLOWED_HOSTS = ["testserver"]
    result = coach_result(text="Which cities?", confidence=0.5)
    fake_anthropic.enqueue(
        Reply.json(result)
        if model_reply == "an answer"
        else Reply.garbled(result, after_chars=20, garbage=b"\xff\xfe")
    )
    finished: list[int] = []

    def count(sender: Any, **kwargs: Any) -> None:
        finished.append(CoachTurn.objects.filter(argument=argument).count())

    request_finished.connect(count)
    try:
        status, lines = _turn(application, student, argument)
    finally:
        request_finished.disconnect(count)
    last = lines[-1]
    assert status == 200
    assert last.get("type") == "result" if model_reply == "an answer" else last.get("error")
    assert finished == [1], "once, with the turn's record saved"
