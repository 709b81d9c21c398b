"""The site's ASGI application: Django's own handler inside the settings' wrappers, with
/healthz answered before them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.core import signals
from django.core.handlers.asgi import ASGIHandler

from config.health import HealthzFirst

pytestmark = pytest.mark.django_db(transaction=True)


async def _asgi_get(application: Any, path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    answered, messages, asked = asyncio.Event(), [], []

    async def receive() -> dict[str, Any]:
        if not asked:
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    await application(scope, receive, send)
    return messages[0]["status"], b"".join(m.get("body", b"") for m in messages[1:])


def test_it_is_djangos_own_handler_inside_the_wrappers() -> None:
    from config.asgi import application  # built with the test settings (conftest)

    assert isinstance(application, HealthzFirst)
    inner = application.app
    while not isinstance(inner, ASGIHandler):
        inner = inner.app  # the wrappers of settings.ASGI_WRAPPERS
    assert type(inner) is ASGIHandler


def test_it_serves_a_page_and_finishes_its_request_once(settings: Any) -> None:
    from config.asgi import application

    settings.ALLOWED_HOSTS = ["testserver"]
    seen: list[str] = []

    def started(**kwargs: Any) -> None:
        seen.append("started")

    def finished(**kwargs: Any) -> None:
        seen.append("finished")

    signals.request_started.connect(started, dispatch_uid="test_asgi")
    signals.request_finished.connect(finished, dispatch_uid="test_asgi")
    try:
        status, body = asyncio.run(_asgi_get(application, "/"))
    finally:
        signals.request_started.disconnect(dispatch_uid="test_asgi")
        signals.request_finished.disconnect(dispatch_uid="test_asgi")
    assert status == 200 and b"<html" in body.lower()
    assert seen == ["started", "finished"]
