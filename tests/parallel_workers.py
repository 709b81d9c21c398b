"""Each parallel test worker gets a Redis database of its own, before settings load.

`make test` runs the suite in two processes (pytest-xdist, one per core). Each
gets its own test database from pytest-django (``test_argue_gw0``, ``_gw1``);
this gives each its own Redis database too, so one worker's Celery worker never
takes the other's tasks and their cache counters never meet. It is loaded with
``-p`` (pyproject's addopts) because pytest-django reads the settings, and with
them ``REDIS_URL``, before any conftest is imported.
"""

from __future__ import annotations

import os
import re

__all__ = ["worker_redis_url"]


def worker_redis_url(url: str, worker: str) -> str:
    """``url`` moved to database (its own + the worker's number): gw0 keeps it, gw1 takes the next."""
    number = int(worker.removeprefix("gw") or 0)
    if not url or number == 0:
        return url
    match = re.fullmatch(r"(redis://[^/?#]*)(?:/(\d*))?", url)
    if match is None:  # a URL this does not understand stays as it is: the tests then share it
        return url
    return f"{match.group(1)}/{int(match.group(2) or 0) + number}"


_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], _worker)
