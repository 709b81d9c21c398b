"""/healthz under ASGI: answered before Django's handler, the rest passed on (config/health.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.core.signals import request_started

from config.health import HEALTHZ_BODY, HealthzFirst


def _scope(method: str, path: str, root_path: str = "") -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": root_path,
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }


def _site() -> Any:
    # Imported here, not at collection: the handler reads the settings (the test
    # settings of tests/conftest.py) when it is built, and other tests import it too.
    from config.asgi import application

    return application


def _call(app: Any, scope: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """The messages `app` sends for `scope` (an empty body), and how many requests Django started."""
    sent: list[dict[str, Any]] = []
    started: list[object] = []

    def note(**kwargs: object) -> None:
        started.append(kwargs)

    bodies = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if bodies:
            return bodies.pop()
        await asyncio.Event().wait()  # no disconnect: Django stops listening once it answers
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    request_started.connect(note, dispatch_uid="test_health")
    try:
        asyncio.run(app(scope, receive, send))
    finally:
        request_started.disconnect(dispatch_uid="test_health")
    return sent, len(started)


def test_it_answers_healthz_without_starting_a_django_request() -> None:
    sent, django_requests = _call(_site(), _scope("GET", "/healthz"))
    assert sent[0]["status"] == 200
    assert (b"content-type", b"application/json") in sent[0]["headers"]
    assert json.loads(sent[1]["body"]) == {"ok": True}
    assert django_requests == 0


def test_it_answers_head_with_no_body_and_under_a_prefix() -> None:
    sent, _ = _call(_site(), _scope("HEAD", "/healthz"))
    assert sent[0]["status"] == 200 and sent[1]["body"] == b""
    sent, django_requests = _call(_site(), _scope("GET", "/argue/healthz", "/argue"))
    assert sent[1]["body"] == HEALTHZ_BODY and django_requests == 0


def test_it_passes_every_other_request_to_django(db: None) -> None:
    sent, django_requests = _call(_site(), _scope("GET", "/favicon.ico"))
    assert sent[0]["status"] == 302  # Django's favicon view, through the middleware
    assert django_requests == 1
    _, django_requests = _call(_site(), _scope("POST", "/healthz"))
    assert django_requests == 1


def test_it_says_what_the_django_view_says(client: Any) -> None:
    # WSGI servers and the test client still reach config.views.healthz.
    assert client.get("/healthz").content == HEALTHZ_BODY


def test_it_leaves_other_scopes_to_the_app_it_wraps() -> None:
    seen: list[str] = []

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    asyncio.run(HealthzFirst(inner)({"type": "lifespan"}, None, None))
    assert seen == ["lifespan"]
