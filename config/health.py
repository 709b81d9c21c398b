"""``GET /healthz`` answered in the event loop, before Django's handler (an ASGI wrapper).

A liveness probe asks one thing: does this process still answer? Through
Django's handler the answer also waits for the middleware chain, and under
ASGI Django's middlewares run their ``process_request`` and
``process_response`` in worker threads (``MiddlewareMixin.__acall__`` wraps
them in ``sync_to_async``, and the chain below the first sync-only one runs in
a thread of its own): several thread hops for a constant, each a wait for the
GIL while twenty students' coach turns hold it. A load balancer then marks a
busy but healthy process dead (the hostile-upload bench, when every
middleware method hopped: p99 277 ms with hostile uploads, 100 ms without). Here the answer is two ``send`` calls in the loop
thread, so its delay is the event loop's own: what a frozen loop would show.

The Django view (``config.views.healthz``) stays for WSGI servers and the
test client; it says the same thing. Nothing here reads the database, a
session or the body, as the view did not. See ASGI spec, HTTP connection
scope (https://asgi.readthedocs.io/en/latest/specs/www.html).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["HEALTHZ_BODY", "HealthzFirst"]

HEALTHZ_BODY = json.dumps({"ok": True}).encode()  # what config.views.healthz answers

Message = dict[str, Any]
App = Callable[
    [dict, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]

_HEADERS = [
    (b"content-type", b"application/json"),
    (b"content-length", str(len(HEALTHZ_BODY)).encode()),
    (b"cache-control", b"no-store"),
    (b"x-content-type-options", b"nosniff"),
]


def _is_healthz(scope: dict) -> bool:
    if scope.get("type") != "http" or scope.get("method") not in ("GET", "HEAD"):
        return False
    path = scope.get("path", "")
    root = scope.get("root_path", "")
    # Under a prefix (root_path) servers differ on whether `path` carries it: take both.
    return path == "/healthz" or (bool(root) and path == f"{root}/healthz")


class HealthzFirst:
    """ASGI wrapper: answer ``GET``/``HEAD /healthz`` itself, pass everything else on."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if not _is_healthz(scope):
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200, "headers": _HEADERS})
        body = b"" if scope["method"] == "HEAD" else HEALTHZ_BODY
        await send({"type": "http.response.body", "body": body})
