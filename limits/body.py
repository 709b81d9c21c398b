"""Refuse a request body larger than ``MAX_REQUEST_BODY_BYTES`` before it is read.

Under uvicorn, Django reads the whole body into a temporary file before any
middleware or view runs: a 2 GB upload (or a 2 GB chunked POST with no
Content-Length) would be spooled to disk in full before any refusal. Two
pieces stop that:

- ``BodyLimit`` wraps the ASGI application (config/asgi.py takes it from
  ``settings.ASGI_WRAPPERS``). It counts the body's bytes as they arrive,
  declared or chunked. A body that declares more than the limit is not read
  at all; one that grows past it is cut there. Either way Django gets an
  empty body and a mark on the request.
- ``RefusedBodyMiddleware`` answers a marked request, or one whose declared
  Content-Length is over the limit (WSGI, the test client), with a plain 413
  page in the reader's language, before anything reads the body.

A deployment's proxy should refuse such bodies even earlier (docs/uploads.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

__all__ = ["BodyLimit", "RefusedBodyMiddleware", "body_too_large"]

MARK = "argue.body_too_large"

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_END = {"type": "http.request", "body": b"", "more_body": False}


def _declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            return int(value) if value.strip().isdigit() else None
    return None


class BodyLimit:
    """ASGI wrapper: count the request body and cut it at ``MAX_REQUEST_BODY_BYTES``."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.MAX_REQUEST_BODY_BYTES
        declared = _declared_length(scope.get("headers") or [])
        received = 0
        finished = False
        if declared is not None and declared > limit:
            scope[MARK] = True

        async def counted() -> Message:
            nonlocal received, finished
            if finished:
                if scope.get(MARK):
                    # The rest of the body is never read. Django listens for a disconnect
                    # while it answers, and stops listening once the 413 is sent.
                    await asyncio.Event().wait()
                return await receive()  # after a whole body: only a disconnect comes
            if scope.get(MARK):
                finished = True
                return dict(_END)
            message = await receive()
            if message.get("type") == "http.request":
                received += len(message.get("body") or b"")
                if received > limit:
                    scope[MARK] = True
                    finished = True
                    return dict(_END)
                finished = not message.get("more_body", False)
            return message

        await self.app(scope, counted, send)


def body_too_large(request: HttpRequest) -> bool:
    """Whether the body was cut (ASGI) or declares more than the limit (any server)."""
    if getattr(request, "scope", {}).get(MARK):
        return True
    declared = request.META.get("CONTENT_LENGTH") or ""
    return declared.isdigit() and int(declared) > settings.MAX_REQUEST_BODY_BYTES


class RefusedBodyMiddleware:
    """A 413 page for a body over the limit; runs before anything reads the body (CSRF too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not body_too_large(request):
            return self.get_response(request)
        megabytes = max(settings.MAX_REQUEST_BODY_BYTES // (1024 * 1024), 1)
        response = render(request, "413.html", {"megabytes": megabytes}, status=413)
        response["Connection"] = "close"  # the unread rest of the body is not waited for
        return response
