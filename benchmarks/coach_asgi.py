"""The site's ASGI app with a stopwatch around each request, for bench_coach's server.

The benchmark wants the server's own time per turn, not what a busy client on
the same two cores observes, so the clock runs inside the server process: from
the moment uvicorn hands the request to Django until the last body byte has
been given back to uvicorn. Requests carrying an ``x-bench-id`` header are
logged as JSON lines to ``BENCH_TIMINGS_PATH``; everything else passes through
untouched. The application itself is `config.asgi.application`, unchanged.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from config.asgi import application as site_application

__all__ = ["application"]

_log = open(os.environ["BENCH_TIMINGS_PATH"], "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - lives as long as the server


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        await site_application(scope, receive, send)
        return
    bench_id = dict(scope["headers"]).get(b"x-bench-id")
    if bench_id is None:
        await site_application(scope, receive, send)
        return
    started = time.perf_counter()

    async def timed_send(message: dict[str, Any]) -> None:
        await send(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            elapsed_ms = (time.perf_counter() - started) * 1000
            _log.write(json.dumps({"id": bench_id.decode(), "ms": elapsed_ms}) + "\n")

    await site_application(scope, receive, timed_send)
