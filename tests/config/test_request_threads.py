"""Each request's sync code in a pooled thread of its own (config/request_threads.py)."""

from __future__ import annotations

import asyncio
import threading
import time

from asgiref.sync import ThreadSensitiveContext, sync_to_async

from config.health import HealthzFirst
from config.request_threads import POOLABLE, PooledThreadsASGIHandler, RequestThreads


def _thread_of_one_request(threads: RequestThreads) -> int:
    """The thread a request's thread-sensitive call runs in, as the handler arranges it."""

    async def request() -> int:
        executor = threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                return await sync_to_async(threading.get_ident)()
        finally:
            threads.give_back(executor)

    return asyncio.run(request())


def _wait_until(predicate, seconds: float = 30.0) -> None:
    """The pool is refilled from the worker thread: wait for it (a bound, not a measure)."""
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert predicate()


def test_it_is_the_sites_asgi_handler() -> None:
    from config.asgi import application  # here: built with the test settings (conftest)

    assert POOLABLE, "asgiref takes an executor for ThreadSensitiveContext"
    assert isinstance(application, HealthzFirst)
    inner = application.app
    while not isinstance(inner, PooledThreadsASGIHandler):
        inner = inner.app  # the wrappers of settings.ASGI_WRAPPERS
    assert inner.threads.keep > 0


def test_it_runs_the_next_request_in_the_thread_the_last_one_left() -> None:
    threads = RequestThreads(keep=4)
    first = _thread_of_one_request(threads)
    _wait_until(lambda: len(threads) == 1)
    assert _thread_of_one_request(threads) == first
    assert first != threading.get_ident()


def test_it_takes_back_a_thread_whose_calls_have_all_run_at_once() -> None:
    threads = RequestThreads(keep=4)
    _thread_of_one_request(threads)
    # No waiting: the pool did not have to wake the thread to learn it was free.
    assert len(threads) == 1


def test_it_gives_no_request_a_thread_still_busy_with_another_ones_work() -> None:
    threads = RequestThreads(keep=4)
    release = threading.Event()
    busy = threads.take()
    busy.submit(release.wait)  # a cancelled request's sync call, still running
    threads.give_back(busy)
    assert len(threads) == 0
    other = threads.take()
    assert other is not busy
    release.set()
    _wait_until(lambda: len(threads) == 1)
    assert threads.take() is busy


def test_it_keeps_no_more_idle_threads_than_asked() -> None:
    threads = RequestThreads(keep=1)
    taken = [threads.take(), threads.take()]
    for executor in taken:
        threads.give_back(executor)
    _wait_until(lambda: taken[1]._shutdown or taken[0]._shutdown)
    assert len(threads) == 1
