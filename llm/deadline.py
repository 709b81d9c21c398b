"""One deadline over a stream's reads, none over what the caller does between them.

A streamed reply is read event by event, and the generator yields each piece
to its caller between reads: the deadline must cancel a read that is still
waiting when it passes, but never the caller's own awaits. ``asyncio.timeout_at``
around each read does exactly that, at the price of a timer armed and
cancelled per event (a scheduled callback, a heap entry, a context manager:
about 5 µs an event, 30-odd events a coach reply). `ReadDeadline` arms one
timer for the whole stream; when it fires it cancels the task only if the
task is inside a read, and a read started after it fired fails at once.

The cancellation is told apart from anyone else's as ``asyncio.timeout``
does it (``Task.cancelling`` / ``Task.uncancel``, Python 3.11): a
cancellation of the task from outside during a read stays a cancellation.
Source: CPython 3.11 ``Lib/asyncio/timeouts.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["ReadDeadline"]

T = TypeVar("T")


class ReadDeadline:
    """A deadline (the loop's clock) over the awaits passed to `read`; `close` when done."""

    def __init__(self, when: float) -> None:
        self._task: asyncio.Task | None = None  # the task inside a read (may change between reads)
        self._reading = False
        self._expired = False
        self._cancelled = False  # cancelled by this deadline, not yet told apart
        self._timer = asyncio.get_running_loop().call_at(when, self._expire)

    def _expire(self) -> None:
        self._expired = True
        if self._reading and not self._cancelled:
            self._cancelled = True
            self._task.cancel()

    async def read(self, awaitable: Awaitable[T]) -> T:
        """`awaitable`'s result; TimeoutError once the deadline has passed (before or during)."""
        if self._expired:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()  # never started: no "was never awaited" warning
            raise TimeoutError
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("ReadDeadline.read must be awaited inside a task")
        self._task, cancelling = task, task.cancelling()
        self._reading = True
        try:
            return await awaitable
        except asyncio.CancelledError as exc:
            if self._cancelled:
                self._cancelled = False
                if task.uncancel() <= cancelling:
                    raise TimeoutError from exc
            raise
        finally:
            self._reading = False

    def close(self) -> None:
        self._timer.cancel()
