"""A live follower whose loop ended with it pending closes without awaiting (no error)."""

from __future__ import annotations

import asyncio
import os

import pytest

from engine.live import _Follower

pytestmark = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="REDIS_URL is not set: start Redis and export REDIS_URL to run this test",
)


def test_it_closes_without_a_loop_when_its_loop_ended_with_it_pending() -> None:
    loop = asyncio.new_event_loop()

    async def follower() -> _Follower:
        return _Follower(
            loop=loop,
            debate_id=10**9,
            redis_url=os.environ["REDIS_URL"],
            poll_interval=0.1,
            check_every=1.0,
        )

    following = loop.run_until_complete(follower())
    coroutine = following._follow_redis()
    task = loop.create_task(coroutine)
    # Subscribed, waiting for where the first listener's replay ended: never told.
    loop.run_until_complete(asyncio.sleep(0.3))
    assert not task.done()
    # Left pending on purpose: its loop says nothing when the task is collected.
    loop.set_exception_handler(lambda loop, context: None)
    loop.close()

    # The loop is gone (a server stopping); the garbage collector closes the coroutine,
    # perhaps in a thread where another loop runs (a browser test's driver).
    async def collected_elsewhere() -> None:
        coroutine.close()  # before: RuntimeError("coroutine ignored GeneratorExit")

    asyncio.run(collected_elsewhere())
