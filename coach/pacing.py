"""Delta lines, paced: at most one per interval, and always the latest text.

A model sends a text event every few characters; forwarding each one costs
the server a JSON encoding, a body chunk and a socket write, and the page a
repaint, for changes nobody can read at that speed. Every delta carries the
whole text so far (replace, do not append), so a delta that is overtaken by
a newer one before its turn to go out can be dropped without losing a word:
the newer one carries it, and so does the final result line.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from typing import Any

__all__ = ["pace_deltas"]


async def pace_deltas(
    lines: AsyncIterator[dict[str, Any]],
    *,
    min_interval_s: float,
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[dict[str, Any]]:
    """Pass `lines` on, keeping deltas at least `min_interval_s` apart.

    The first delta goes out at once (the student sees the coach start).
    A delta that comes too soon is held; a later delta replaces it, any
    other line (result, error) supersedes it, and if the lines simply end,
    it goes out last. Lines other than deltas are never held or dropped.
    The pace is checked as lines arrive, so a held delta waits for the
    model's next event, never longer.
    """
    last_sent: float | None = None
    held: dict[str, Any] | None = None
    async for line in lines:
        if line.get("type") != "delta":
            held = None
            yield line
            continue
        now = clock()
        if last_sent is None or now - last_sent >= min_interval_s:
            last_sent, held = now, None
            yield line
        else:
            held = line
    if held is not None:
        yield held
