"""Hand work to the background: a Celery worker when there is a broker, else a thread.

Without a broker (`CELERY_TASK_ALWAYS_EAGER`, the default when REDIS_URL is
unset) Celery would run a task inside the request that enqueued it, and the
visitor would wait for every model call of a debate or a trial. Instead the
work goes to a small pool of daemon threads and the response goes out at
once; the pages follow progress from the database.

The pool has at most `BACKGROUND_THREADS` threads: more work waits in line
(first come, first served) and runs when a thread is free, so twenty trials
started at once cannot start twenty threads, each with its own database
connection and model client. Daemon threads, unlike `concurrent.futures`
workers, do not hold up a server that is stopping; a stop kills them, with
what was running or waiting: each app has a `resume_*` management command
that hands unfinished work out again, and waits for it (`wait_for_background`).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future

from celery import Task
from django.conf import settings
from django.db import connections, transaction

__all__ = [
    "BackgroundPool",
    "run_in_background",
    "run_in_background_on_commit",
    "uses_broker",
    "wait_for_background",
]

logger = logging.getLogger(__name__)


def uses_broker() -> bool:
    return not settings.CELERY_TASK_ALWAYS_EAGER


def _run_and_clean_up(target: Callable[[int], object], object_id: int) -> object:
    try:
        return target(object_id)
    except Exception:  # a thread has nobody to raise to
        logger.exception("background %s(%s) failed", target.__qualname__, object_id)
        raise
    finally:
        connections.close_all()  # this thread's own connections only


class BackgroundPool:
    """At most `size()` daemon threads run the submitted jobs; the others wait, in order.

    Threads start as work arrives, up to the size read at that moment, and
    then stay, waiting for more. `submit` returns a Future of the job's result.
    """

    def __init__(self, *, size: Callable[[], int], name: str = "background") -> None:
        self._size = size
        self._name = name
        self._jobs: queue.SimpleQueue[tuple[Future, Callable[[], object]]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._unfinished = 0
        self._all_done = threading.Condition(self._lock)

    @property
    def threads(self) -> int:
        return self._threads

    def submit(self, job: Callable[[], object]) -> Future:
        future: Future = Future()
        with self._lock:
            self._unfinished += 1
            self._jobs.put((future, job))
            if self._threads < max(1, self._size()):
                self._threads += 1
                threading.Thread(
                    target=self._work, name=f"{self._name}-{self._threads}", daemon=True
                ).start()
        return future

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submitted job has finished; False if `timeout` ran out first."""
        with self._all_done:
            return self._all_done.wait_for(lambda: self._unfinished == 0, timeout=timeout)

    def _work(self) -> None:
        while True:
            future, job = self._jobs.get()
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except BaseException as exc:  # the Future carries it to whoever waits
                        future.set_exception(exc)
            finally:
                with self._all_done:
                    self._unfinished -= 1
                    self._all_done.notify_all()


_pool = BackgroundPool(size=lambda: settings.BACKGROUND_THREADS)


def run_in_background(
    *, task: Task, target: Callable[[int], object], object_id: int, name: str
) -> Future | None:
    """Run `task` on a worker, or `target(object_id)` in the thread pool without a broker.

    Returns the pool's Future when the work went to the pool (tests may wait
    on it), None when a worker will run it.
    """
    if uses_broker():
        task.delay(object_id)
        return None
    logger.debug("background %s queued", name)
    return _pool.submit(lambda: _run_and_clean_up(target, object_id))


def wait_for_background(timeout: float | None = None) -> bool:
    """Wait until the pool has run everything handed to it (a command that must not exit
    before its work is done); True at once with a broker."""
    if uses_broker():
        return True
    return _pool.wait(timeout)


def run_in_background_on_commit(
    *, task: Task, target: Callable[[int], object], object_id: int, name: str
) -> None:
    """As `run_in_background`, once the current transaction commits.

    A worker must never look for a row that is not saved yet.
    """
    transaction.on_commit(
        lambda: run_in_background(task=task, target=target, object_id=object_id, name=name)
    )
