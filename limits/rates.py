"""Sliding rate windows kept in the site's cache (Redis with REDIS_URL, else this process's memory).

Each (name, key) pair, say ("debate", user 7), keeps the moments of its
recent hits as one cache entry; `limits.window` decides whether one more fits.
Taking a hit reads, decides and writes under a short lock of its own (an
atomic ``cache.add``), so two requests of one user at the same instant cannot
both take the last place. The entry expires a period after its last hit.

A cache that fails lets the action through (logged): a rate that cannot be
checked must not take the site down. `clock` is the time the windows read;
tests replace it to cross a window's end without waiting.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from django.core.cache import cache

from limits import window
from limits.window import Usage

__all__ = ["Usage", "check", "clock", "take"]

logger = logging.getLogger(__name__)

clock: Callable[[], float] = time.time

LOCK_SECONDS = 5  # a lock left by a process that died frees itself after this
LOCK_TRIES = 200  # ~1 s of waiting for one user's own concurrent request
LOCK_PAUSE = 0.005


def _key(name: str, key: str) -> str:
    return f"limits:window:{name}:{key}"


def _hits(entry: object) -> list[float]:
    if not isinstance(entry, list):
        return []
    return [float(t) for t in entry if isinstance(t, int | float)]


def check(name: str, key: str, *, limit: int, period: float) -> Usage | None:
    """The window's usage now, without taking a hit; None when there is no limit or no cache."""
    if limit <= 0:
        return None
    try:
        hits = _hits(cache.get(_key(name, key)))
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("rate %s not checked: the cache failed", name, exc_info=True)
        return None
    return window.usage(hits, now=clock(), limit=limit, period=period)


def take(name: str, key: str, *, limit: int, period: float) -> Usage | None:
    """Take one hit if it fits; the usage before it (``allowed`` says whether it was taken).

    None when there is no limit or the cache failed (the hit goes unchecked).
    """
    if limit <= 0:
        return None
    entry, lock = _key(name, key), f"{_key(name, key)}:lock"
    try:
        for _attempt in range(LOCK_TRIES):
            if cache.add(lock, 1, LOCK_SECONDS):
                break
            time.sleep(LOCK_PAUSE)  # only while this same user's other request holds it
        else:
            # Someone holds this user's window for a second: refuse rather than
            # guess (one more try in a moment will do).
            now = clock()
            return Usage(count=limit, limit=limit, retry_at=now + 1)
        try:
            now = clock()
            used, kept = window.hit(_hits(cache.get(entry)), now=now, limit=limit, period=period)
            if used.allowed:
                cache.set(entry, kept, math.ceil(period) + 1)
            return used
        finally:
            # Held for a read and a write: long before its timeout frees it for another.
            cache.delete(lock)
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("rate %s not checked: the cache failed", name, exc_info=True)
        return None
