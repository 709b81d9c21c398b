"""A request's thread hops through the site's ASGI handler (config/request_threads.py):
one for a page, its ``request_started`` and ``request_finished`` in the request's thread."""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import threading
from collections import Counter
from typing import Any

import pytest
from asgiref import sync
from django.core import signals
from django.core.handlers.asgi import ASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)

# Django 5.2's ASGIHandler.handle, which PooledThreadsASGIHandler.handle copies with two
# changes. An upgrade that changes it must be read and the copy brought in line.
DJANGO_HANDLE_SHA256 = "98faeb5bef800331e6a8002fbc96b30e4122a23438ae45a047190a531ea11323"


async def _asgi_get(application: Any, path: str, log: list[tuple[str, int]]) -> int:
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
    answered, status = asyncio.Event(), []

    async def receive() -> dict[str, Any]:
        if not status:
            status.append(0)
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        log.append((message["type"], threading.get_ident()))
        if message["type"] == "http.response.start":
            status[0] = message["status"]
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    await application(scope, receive, send)
    return status[0]


def test_it_serves_a_page_with_one_hop_and_its_signals_in_the_requests_thread(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.asgi import application  # the site's handler, built with the test settings

    settings.ALLOWED_HOSTS = ["testserver"]
    log: list[tuple[str, int]] = []

    def started(**kwargs: Any) -> None:
        log.append(("request_started", threading.get_ident()))

    def finished(**kwargs: Any) -> None:
        log.append(("request_finished", threading.get_ident()))

    hops: Counter[str] = Counter()
    to_thread = sync.SyncToAsync.__call__

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        hops["to a thread"] += 1
        return to_thread(self, *args, **kwargs)

    signals.request_started.connect(started, dispatch_uid="test_request_hops")
    signals.request_finished.connect(finished, dispatch_uid="test_request_hops")
    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    try:
        status = asyncio.run(_asgi_get(application, "/", log))
    finally:
        signals.request_started.disconnect(dispatch_uid="test_request_hops")
        signals.request_finished.disconnect(dispatch_uid="test_request_hops")
    assert status == 200  # the home page, signed out: rendered in memory
    # Django's handler hopped three times: request_started, the chain, response.close().
    assert hops == {"to a thread": 1}, hops
    names = [name for name, _ in log]
    assert names == [
        "request_started",
        "request_finished",
        "http.response.start",
        "http.response.body",
    ], names
    (_, started_in), (_, finished_in), (_, sent_from) = log[0], log[1], log[2]
    assert started_in == finished_in != sent_from  # the request's thread; sent from the loop


def test_it_copies_djangos_handle_as_it_is_in_this_version() -> None:
    source = inspect.getsource(ASGIHandler.handle)
    assert hashlib.sha256(source.encode()).hexdigest() == DJANGO_HANDLE_SHA256, (
        "Django's ASGIHandler.handle changed: bring config.request_threads' copy in line"
    )


def test_it_still_closes_the_request_with_a_response_closed_before_it_is_sent(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The request's uploaded files are closed with its response, as Django closes them."""
    from django.http import HttpRequest

    from config.asgi import application

    settings.ALLOWED_HOSTS = ["testserver"]
    closed: list[int] = []
    close = HttpRequest.close

    def counted(self: HttpRequest) -> None:
        closed.append(threading.get_ident())
        close(self)

    monkeypatch.setattr(HttpRequest, "close", counted)
    log: list[tuple[str, int]] = []
    assert asyncio.run(_asgi_get(application, "/", log)) == 200
    assert len(closed) == 1
