"""Delta lines, paced: at most one per interval, nothing lost.

A model sends a text event every few characters; forwarding each one costs
the server a JSON encoding, a body chunk and a socket write, and the page a
repaint, for changes nobody can read at that speed. Every delta carries only
the characters to append, so a delta that comes too soon is held and the
ones after it are added to it: the line that finally goes out carries them
all, in order. A result or error line supersedes what is held (the result
carries the whole text; an error removes the unfinished bubble).
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
    A delta that comes too soon is held and the next deltas join it; any
    other line (result, error) supersedes it, and if the lines simply end,
    it goes out last. Lines other than deltas are never held or dropped.
    The pace is checked as lines arrive, so a held delta waits for the
    model's next event, never longer.
    """
    last_sent: float | None = None
    held: list[str] = []
    async for line in lines:
        if line.get("type") != "delta":
            held = []
            yield line
            continue
        held.append(line["text"])
        now = clock()
        if last_sent is None or now - last_sent >= min_interval_s:
            last_sent = now
            text, held = "".join(held), []
            yield {**line, "text": text}
    if held:
        yield {"type": "delta", "text": "".join(held)}
