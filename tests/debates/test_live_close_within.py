"""A follower's Redis connections are closed within a bound, and never left "never awaited"."""

from __future__ import annotations

import asyncio
import inspect
import warnings

import pytest

from engine import live


def test_it_awaits_a_close_that_answers_in_time() -> None:
    closed = []

    async def close() -> None:
        closed.append(True)

    asyncio.run(live._close_within(close, seconds=1))
    assert closed == [True]


def test_it_gives_up_on_a_close_that_hangs() -> None:
    async def close() -> None:
        await asyncio.sleep(60)

    async def run() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await live._close_within(close, seconds=0.05)
        return loop.time() - started

    assert asyncio.run(run()) < 5


def test_it_closes_a_close_that_never_started(monkeypatch) -> None:
    """When waiting fails before the coroutine runs (its loop is ending), it is closed."""
    made = []

    async def close() -> None:  # pragma: no cover - never runs
        raise AssertionError("not run")

    def make():
        made.append(close())
        return made[-1]

    async def refuse(*args, **kwargs):
        raise RuntimeError("Event loop is closed")

    monkeypatch.setattr(live.asyncio, "wait_for", refuse)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        asyncio.run(live._close_within(make, seconds=1))
    assert inspect.getcoroutinestate(made[0]) == inspect.CORO_CLOSED


def test_it_lets_a_cancellation_through(monkeypatch) -> None:
    async def close() -> None:  # pragma: no cover - never runs
        raise AssertionError("not run")

    async def cancelled(*args, **kwargs):
        raise asyncio.CancelledError

    monkeypatch.setattr(live.asyncio, "wait_for", cancelled)
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(live._close_within(close, seconds=1))
