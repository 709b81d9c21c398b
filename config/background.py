"""Hand work to the background: a Celery worker when there is a broker, else a thread.

Without a broker (`CELERY_TASK_ALWAYS_EAGER`, the default when REDIS_URL is
unset) Celery would run a task inside the request that enqueued it, and the
visitor would wait for every model call of a debate or a trial. Instead the
work goes to a small pool of daemon threads and the response goes out at
once; the pages follow progress from the database.

The pool has at most `BACKGROUND_THREADS` threads: more work waits in line,
so twenty trials started at once cannot start twenty threads, each with its
own database connection and model client. The line is fair between users:
each job names its owner, one owner's jobs hold at most
`BACKGROUND_THREADS_PER_USER` threads (and never all of them, so someone
else's run always has a thread to go to), and a thread that frees takes the
oldest job of the waiting owner served longest ago (round robin), not
the oldest job of the site. Work without an owner (a command that resumes the site's
unfinished runs) waits in the same turn, without a per-owner bound. Daemon
threads, unlike `concurrent.futures` workers, do not hold up a server that
is stopping; a stop kills them, with what was running or waiting: each app
has a `resume_*` management command that hands unfinished work out again,
and waits for it (`wait_for_background`).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable
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
    """At most `size()` daemon threads run the submitted jobs, fairly between owners.

    Threads start as work arrives, up to the size read at that moment, and
    then stay, waiting for more. `submit` returns a Future of the job's result.
    `per_owner()`: how many threads one owner's jobs may hold at once (0: no
    bound of its own); bounded by size - 1 when there is more than one thread.
    """

    def __init__(
        self,
        *,
        size: Callable[[], int],
        per_owner: Callable[[], int] = lambda: 0,
        name: str = "background",
    ) -> None:
        self._size = size
        self._per_owner = per_owner
        self._name = name
        # owner -> its waiting jobs (arrival number, future, job), oldest first.
        self._waiting: dict[Hashable, deque[tuple[int, Future, Callable[[], object]]]] = {}
        self._running: Counter[Hashable] = Counter()
        # owner -> when it was last given a thread, while it has work waiting or running.
        self._served: dict[Hashable, int] = {}
        self._ticks = 0
        self._arrivals = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._threads = 0
        self._idle = 0
        self._unfinished = 0

    @property
    def threads(self) -> int:
        return self._threads

    def submit(self, job: Callable[[], object], *, owner: Hashable = None) -> Future:
        future: Future = Future()
        with self._changed:
            self._unfinished += 1
            self._arrivals += 1
            self._waiting.setdefault(owner, deque()).append((self._arrivals, future, job))
            if self._idle == 0 and self._threads < max(1, self._size()):
                self._threads += 1
                threading.Thread(
                    target=self._work, name=f"{self._name}-{self._threads}", daemon=True
                ).start()
            self._changed.notify_all()
        return future

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submitted job has finished; False if `timeout` ran out first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._unfinished == 0, timeout=timeout)

    def _bound(self) -> int:
        size, wanted = max(1, self._size()), self._per_owner()
        bound = size - 1 if size > 1 else 1  # one thread is always left to another owner
        return min(wanted, bound) if wanted > 0 else bound

    def _next(self) -> tuple[Hashable, Future, Callable[[], object]] | None:
        """The oldest job of the owner served longest ago that may run one more (lock held).

        An owner never served (or not since its work all ended) comes first;
        ties go to the oldest waiting job.
        """
        bound = self._bound()
        eligible = [
            (self._served.get(owner, -1), jobs[0][0], owner)
            for owner, jobs in self._waiting.items()
            if owner is None or self._running[owner] < bound
        ]
        if not eligible:
            return None
        _served, _seq, owner = min(eligible, key=lambda item: item[:2])
        jobs = self._waiting[owner]
        _seq, future, job = jobs.popleft()
        if not jobs:
            del self._waiting[owner]
        self._running[owner] += 1
        self._ticks += 1
        self._served[owner] = self._ticks
        return owner, future, job

    def _work(self) -> None:
        while True:
            with self._changed:
                while (picked := self._next()) is None:
                    self._idle += 1
                    self._changed.wait()
                    self._idle -= 1
            owner, future, job = picked
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(job())
                    except BaseException as exc:  # the Future carries it to whoever waits
                        future.set_exception(exc)
            finally:
                with self._changed:
                    self._running[owner] -= 1
                    if not self._running[owner]:
                        del self._running[owner]
                        if owner not in self._waiting:
                            self._served.pop(owner, None)
                    self._unfinished -= 1
                    self._changed.notify_all()


_pool = BackgroundPool(
    size=lambda: settings.BACKGROUND_THREADS,
    per_owner=lambda: settings.BACKGROUND_THREADS_PER_USER,
)


def run_in_background(
    *,
    task: Task,
    target: Callable[[int], object],
    object_id: int,
    name: str,
    owner: Callable[[], Hashable] | None = None,
) -> Future | None:
    """Run `task` on a worker, or `target(object_id)` in the thread pool without a broker.

    `owner`: who the work is for (a user id), asked only when it goes to the
    pool, whose fair share it counts in. Returns the pool's Future when the
    work went to the pool (tests may wait on it), None when a worker will run it.
    """
    if uses_broker():
        task.delay(object_id)
        return None
    logger.debug("background %s queued", name)
    return _pool.submit(
        lambda: _run_and_clean_up(target, object_id), owner=owner() if owner else None
    )


def wait_for_background(timeout: float | None = None) -> bool:
    """Wait until the pool has run everything handed to it (a command that must not exit
    before its work is done); True at once with a broker."""
    if uses_broker():
        return True
    return _pool.wait(timeout)


def run_in_background_on_commit(
    *,
    task: Task,
    target: Callable[[int], object],
    object_id: int,
    name: str,
    owner: Callable[[], Hashable] | None = None,
) -> None:
    """As `run_in_background`, once the current transaction commits.

    A worker must never look for a row that is not saved yet.
    """
    transaction.on_commit(
        lambda: run_in_background(
            task=task, target=target, object_id=object_id, name=name, owner=owner
        )
    )
