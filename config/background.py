"""Hand work to the background: a Celery worker when there is a broker, else a thread.

Without a broker (`CELERY_TASK_ALWAYS_EAGER`, the default when REDIS_URL is
unset) Celery would run a task inside the request that enqueued it, and the
visitor would wait for every model call of a debate or a trial. A daemon
thread instead lets the response go out at once; the pages follow progress
from the database. A server restart kills such threads: each app has a
`resume_*` management command that hands unfinished work out again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from celery import Task
from django.conf import settings
from django.db import connections, transaction

__all__ = ["uses_broker", "run_in_background", "run_in_background_on_commit"]

logger = logging.getLogger(__name__)


def uses_broker() -> bool:
    return not settings.CELERY_TASK_ALWAYS_EAGER


def _run_and_clean_up(target: Callable[[int], object], object_id: int) -> None:
    try:
        target(object_id)
    except Exception:  # a thread has nobody to raise to
        logger.exception("background %s(%s) failed", target.__qualname__, object_id)
    finally:
        connections.close_all()  # this thread's own connections only


def run_in_background(
    *, task: Task, target: Callable[[int], object], object_id: int, name: str
) -> threading.Thread | None:
    """Run `task` on a worker, or `target(object_id)` in a daemon thread without a broker.

    Returns the thread when one was started, so tests can join it.
    """
    if uses_broker():
        task.delay(object_id)
        return None
    thread = threading.Thread(
        target=_run_and_clean_up, args=(target, object_id), name=name, daemon=True
    )
    thread.start()
    return thread


def run_in_background_on_commit(
    *, task: Task, target: Callable[[int], object], object_id: int, name: str
) -> None:
    """As `run_in_background`, once the current transaction commits.

    A worker must never look for a row that is not saved yet.
    """
    transaction.on_commit(
        lambda: run_in_background(task=task, target=target, object_id=object_id, name=name)
    )
