"""Sliding rate windows kept in the site's cache (Redis with REDIS_URL, else this process's memory).

Each (name, key) pair, say ("debate", user 7), keeps the moments of its
recent hits; `limits.window` decides whether one more fits. Two requests of
one user at the same instant cannot both take the last place:

- on Redis the moments are a sorted set, and taking a hit is one script that
  drops the moments out of the window, decides and adds, atomically: one
  round trip (a coach turn takes one on every message, and the lock, read,
  write and unlock of a cache entry were four; docs/coach.md, "Speed").
  Reading the window without taking is one more; an admission that may still
  be refused on other grounds takes first and gives the hit back (`taking`:
  one script a turn where a check and a take were two). The decision is the same
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache

from limits import window
from limits.window import Usage

__all__ = ["Usage", "check", "clock", "take", "taking"]

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


def _take_on_redis(
    client: Any, name: str, key: str, *, limit: int, period: float, member: str
) -> Usage:
    now = clock()
    live = client.eval(
        _TAKE,
        1,
        _moments_key(name, key),
        repr(now),
        repr(period),
        limit,
        math.ceil(period) + 1,
        member,
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
    return _take(name, key, limit=limit, period=period)[0]


@contextmanager
def taking(name: str, key: str, *, limit: int, period: float) -> Iterator[Usage | None]:
    """`take`, for the block: a hit taken is given back if the block raises.

    For an action that is refused after its hit was taken, on grounds of its own
    (a spending quota): one round trip to the cache when it goes ahead, instead
    of a `check` before those grounds and a `take` after them.
    """
    usage, give_back = _take(name, key, limit=limit, period=period)
    try:
        yield usage
    except BaseException:
        if give_back is not None:
            give_back()
        raise


def _take(
    name: str, key: str, *, limit: int, period: float
) -> tuple[Usage | None, Callable[[], None] | None]:
    """The usage, and how to give the hit back (None when none was taken)."""
    if limit <= 0:
        return None, None
    entry = _key(name, key)
    try:
        client = _redis()
        if client is not None:
            member = secrets.token_hex(8)  # two hits at one moment are two members
            used = _take_on_redis(client, name, key, limit=limit, period=period, member=member)
            moments = _moments_key(name, key)
            return used, (lambda: _quietly(client.zrem, moments, member)) if used.allowed else None
        with _window_lock(entry) as held:
            if not held:
                # Someone holds this user's window for a second: refuse rather than
                # guess (one more try in a moment will do).
                return Usage(count=limit, limit=limit, retry_at=clock() + 1), None
            now = clock()
            used, kept = window.hit(_hits(cache.get(entry)), now=now, limit=limit, period=period)
            if not used.allowed:
                return used, None
            cache.set(entry, kept, math.ceil(period) + 1)
        return used, lambda: _quietly(_drop_moment, entry, now, period)
    except Exception:  # noqa: BLE001 - see the module docstring
        logger.warning("rate %s not checked: the cache failed", name, exc_info=True)
        return None, None


@contextmanager
def _window_lock(entry: str) -> Iterator[bool]:
    """This process's memory cache: the entry's own short lock (an atomic ``add``)."""
    lock = f"{entry}:lock"
    for _attempt in range(LOCK_TRIES):
        if cache.add(lock, 1, LOCK_SECONDS):
            break
        time.sleep(LOCK_PAUSE)  # only while this same user's other request holds it
    else:
        yield False
        return
    try:
        yield True
    finally:
        # Held for a read and a write: long before its timeout frees it for another.
        cache.delete(lock)


def _drop_moment(entry: str, moment: float, period: float) -> None:
    with _window_lock(entry) as held:
        if not held:
            return
        hits = _hits(cache.get(entry))
        if moment in hits:
            hits.remove(moment)
            cache.set(entry, hits, math.ceil(period) + 1)


def _quietly(give_back: Callable[..., Any], *args: Any) -> None:
    # A hit that cannot be given back only counts once too often: never an error.
    try:
        give_back(*args)
    except Exception:  # noqa: BLE001
        logger.warning("a rate hit was not given back: the cache failed", exc_info=True)
