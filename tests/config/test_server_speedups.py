"""The server runs on uvloop and httptools, which uvicorn takes only when they are installed.

Nothing fails without them (uvicorn falls back to asyncio and h11), so this is
the test that notices when a change of requirements drops them: the coach's
CPU per turn would grow again by 6-9 % (docs/coach.md, "Speed").
"""

from __future__ import annotations

import asyncio

from uvicorn.config import Config


def test_it_serves_http_with_httptools() -> None:
    config = Config("config.asgi:application", http="auto", lifespan="off")
    config.load()
    assert config.http_protocol_class.__name__ == "HttpToolsProtocol"


def test_it_runs_the_event_loop_on_uvloop() -> None:
    config = Config("config.asgi:application", loop="auto", lifespan="off")
    factory = config.get_loop_factory()
    loop = factory()
    try:
        assert type(loop).__module__.startswith("uvloop")
        assert isinstance(loop, asyncio.AbstractEventLoop)
    finally:
        loop.close()
