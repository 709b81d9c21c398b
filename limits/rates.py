"""Sliding rate windows kept in the site's cache (Redis with REDIS_URL, else this process's memory).

Each (name, key) pair, say ("debate", user 7), keeps the moments of its
recent hits; `limits.window` decides whether one more fits. Two requests of
one user at the same instant cannot both take the last place:

- on Redis the moments are a sorted set, and taking a hit is one script that
  drops the moments out of the window, decides and adds, atomically: one
  round trip (a coach turn takes one on every message, and the lock, read,
  write and unlock of a cache entry were four; docs/coach.md, "Speed").
  Reading the window without taking is one more. The decision is the same
  as `limits.window.hit`'s (a test holds them together);
- elsewhere (one process's memory) the moments are one cache entry, read,
  decided and written under a short lock of its own (an atomic ``cache.add``).

The moments expire a period after the last hit.

A cache that fails lets the action through (logged): a rate that cannot be
checked must not take the site down. `clock` is the time the windows read;
tests replace it to cross a window's end without waiting.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

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


# The window's clock is the later of the caller's and the latest hit recorded: another
# process whose clock runs a little ahead (or whose request got here first) never makes
# a hit "later than now", to be ignored and let one more through. Drops the moments that
# have left the window ((now - period, now] stays, as in limits.window), then adds this
# hit if fewer than the limit remain; returns the moments live before it, with which
# limits.window makes the same decision in Python.
_TAKE = """
local now = tonumber(ARGV[1])
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if #latest > 0 and tonumber(latest[2]) > now then now = tonumber(latest[2]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local live = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
if #live / 2 < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now, ARGV[5])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
return live
"""


def _redis() -> Any | None:
    """The Redis client of the site's cache, or None when the cache is not Redis."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    return backend._cache.get_client(write=True)


def _moments_key(name: str, key: str) -> str:
    # A key of its own: the memory cache's entries (a pickled list) are another type.
    return cache.make_and_validate_key(f"limits:moments:{name}:{key}")


def _scores(flat: list[Any]) -> list[float]:
    """Scores from ZRANGE ... WITHSCORES's [member, score, member, score, ...]."""
    return [float(score) for score in flat[1::2]]


def _decided(flat: list[Any], now: float, *, limit: int, period: float) -> Usage:
    """limits.window's decision on the moments read, at the window's clock (see _TAKE)."""
    live = _scores(flat)
    return window.usage(live, now=max([now, *live]), limit=limit, period=period)


def _take_on_redis(client: Any, name: str, key: str, *, limit: int, period: float) -> Usage:
    now = clock()
    live = client.eval(
        _TAKE,
        1,
        _moments_key(name, key),
        repr(now),
        repr(period),
        limit,
        math.ceil(period) + 1,
        secrets.token_hex(8),  # two hits at one moment are two members
    )
    return _decided(live, now, limit=limit, period=period)


def _check_on_redis(client: Any, name: str, key: str, *, limit: int, period: float) -> Usage:
    live = client.zrange(_moments_key(name, key), 0, -1, withscores=True)
    flat = [value for pair in live for value in pair]
    return _decided(flat, clock(), limit=limit, period=period)


def check(name: str, key: str, *, limit: int, period: float) -> Usage | None:
    """The window's usage now, without taking a hit; None when there is no limit or no cache."""
    if limit <= 0:
        return None
    try:
        client = _redis()
        if client is not None:
            return _check_on_redis(client, name, key, limit=limit, period=period)
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
        client = _redis()
        if client is not None:
            return _take_on_redis(client, name, key, limit=limit, period=period)
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
