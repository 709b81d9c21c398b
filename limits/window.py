"""A sliding window over the moments of past hits: no period ever holds more than the limit.

Pure arithmetic, no Django: `limits.rates` keeps each user's hits in the
cache and asks here whether one more fits. Moments are seconds (any clock,
as long as one window uses one clock).

A fixed window (so many per clock hour) lets a student use the limit just
before the hour turns and again just after it: twice the limit within
minutes. A token bucket has the same fault at its burst size. Here a hit at
``now`` is let through only when fewer than ``limit`` hits lie in the
``period`` seconds before it, so any interval of ``period`` seconds holds
at most ``limit`` hits, wherever it starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Usage", "hit", "usage"]


@dataclass(frozen=True, slots=True)
class Usage:
    """How many hits count now against `limit`, and when one more fits.

    `retry_at` is None while one more fits now; otherwise the moment the
    hit that has to leave the window does so.
    """

    count: int
    limit: int
    retry_at: float | None

    @property
    def allowed(self) -> bool:
        return self.retry_at is None


def _live(hits: Sequence[float], *, now: float, period: float) -> list[float]:
    # A hit exactly `period` ago has left: [now - period, now) would otherwise
    # hold it and the one being decided, limit + 1 in a closed interval.
    return sorted(t for t in hits if now - period < t <= now)


def usage(hits: Sequence[float], *, now: float, limit: int, period: float) -> Usage:
    """Whether one more hit fits at `now` among `hits` (any order; later moments ignored)."""
    if limit < 1:
        raise ValueError("a window holds at least one hit; no limit is no window")
    live = _live(hits, now=now, period=period)
    if len(live) < limit:
        return Usage(count=len(live), limit=limit, retry_at=None)
    # One more fits once all but limit - 1 of the live hits have left.
    leaving = live[len(live) - limit]
    return Usage(count=len(live), limit=limit, retry_at=leaving + period)


def hit(
    hits: Sequence[float], *, now: float, limit: int, period: float
) -> tuple[Usage, list[float]]:
    """Try one hit at `now`: its usage (as `usage` sees it before) and the hits to keep.

    When refused, the kept hits are the live ones, unchanged: a refusal does
    not count.
    """
    decided = usage(hits, now=now, limit=limit, period=period)
    live = _live(hits, now=now, period=period)
    if decided.allowed:
        live.append(now)
    return decided, live
