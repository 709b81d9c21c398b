"""How often a coach turn crosses between the event loop and a thread, through the site's
own ASGI handler (config/request_threads.py): each crossing is a thread wake-up and a
wait in the loop's queue, paid by every student at once."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import pytest
from asgiref import sync
from django.core.signals import request_finished
from django.test import Client

from coach.models import Argument
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


def test_it_crosses_twice_a_turn(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    crossings: Counter[str],
    settings: Any,
) -> None:
    from config.asgi import application  # the site's handler, built with the test settings

    settings.ALLOWED_HOSTS = ["testserver"]
    fake_anthropic.enqueue(Reply.json(coach_result(text="Which cities?", confidence=0.5)))
    client = Client()
    client.force_login(student)
    cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"
    body = json.dumps({"argument_id": argument.pk, "message": "Ban cars.", "step": "claim"})
    crossings.clear()
    status, reply = asyncio.run(_asgi_post(application, "/api/coach", body.encode(), cookies))
    assert status == 200, reply
    assert json.loads(reply.splitlines()[-1])["type"] == "result"
    # Into a thread for request_started's receivers, the middleware chain and the view's
    # checks (one hop for all of them), and for saving the reply and closing the response
    # (config.request_threads.then_close_response). Before the chain was built for sync:
    # seven, and one back to the loop; before request_started joined the chain's hop:
    # four; before the response was closed with the reply's save: three.
    assert crossings == {"to a thread": 2}, crossings


@pytest.mark.parametrize("model_reply", ["an answer", "a broken stream"])
def test_it_finishes_the_request_once_whether_the_turn_succeeds_or_fails(
    fake_anthropic: FakeAnthropicServer,
    student: Any,
    argument: Argument,
    settings: Any,
    model_reply: str,
    crossings: Counter[str],
) -> None:
    # The response is closed with the turn's last save, not again once it is sent:
    # request_finished (the database connections go back) comes once, either way.
    # And nothing after that save reaches the database: from the loop it could only
    # through one more hop into a thread, which the count of crossings would show.
    from config.asgi import application

    settings.ALLOWED_HOSTS = ["testserver"]
    result = coach_result(text="Which cities?", confidence=0.5)
    fake_anthropic.enqueue(
        Reply.json(result)
        if model_reply == "an answer"
        else Reply.garbled(result, after_chars=20, garbage=b"\xff\xfe")
    )
    client = Client()
    client.force_login(student)
    cookies = f"sessionid={client.cookies['sessionid'].value}; csrftoken={CSRF}"
    body = json.dumps({"argument_id": argument.pk, "message": "Ban cars.", "step": "claim"})
    finished: list[Any] = []

    def count(sender: Any, **kwargs: Any) -> None:
        finished.append(sender)

    request_finished.connect(count)
    crossings.clear()
    try:
        status, reply = asyncio.run(_asgi_post(application, "/api/coach", body.encode(), cookies))
    finally:
        request_finished.disconnect(count)
    last = json.loads(reply.splitlines()[-1])
    assert status == 200
    assert last.get("type") == "result" if model_reply == "an answer" else last.get("error")
    assert len(finished) == 1, finished
    assert crossings == {"to a thread": 2}, crossings
