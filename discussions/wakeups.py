"""Wake this process's live followers of a discussion when one of its posts is saved.

``services`` calls ``changed`` after the commit (from a request's thread);
``live`` registers each follower's event here (in its event loop's thread).
Apart from both so that neither imports the other; without a wake-up a
follower still sees the change at its next poll.
"""

from __future__ import annotations

import asyncio
import threading

__all__ = ["changed", "unwatch", "watch"]

_lock = threading.Lock()
_watching: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}


def watch(discussion_id: int, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    with _lock:
        _watching.setdefault(discussion_id, set()).add((loop, event))


def unwatch(discussion_id: int, loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    with _lock:
        watchers = _watching.get(discussion_id, set())
        watchers.discard((loop, event))
        if not watchers:
            _watching.pop(discussion_id, None)


def changed(discussion_id: int) -> None:
    """Set every watching follower's event, in its own loop (safe from any thread)."""
    with _lock:
        watchers = list(_watching.get(discussion_id, ()))
    for loop, event in watchers:
        if not loop.is_closed():
            loop.call_soon_threadsafe(event.set)
