"""Delta pacing: at most one delta per interval, every character kept, nothing else held back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from coach.pacing import pace_deltas
from tests.coach.support import run


def delta(text: str, at: float) -> dict[str, Any]:
    return {"type": "delta", "text": text, "at": at}


def paced(lines: list[dict[str, Any]], *, interval: float) -> list[dict[str, Any]]:
    """Run pace_deltas over `lines`; a delta's "at" is the clock when it arrives."""
    now = [0.0]

    async def source() -> AsyncIterator[dict[str, Any]]:
        for line in lines:
            now[0] = line.get("at", now[0])
            yield line

    async def collect() -> list[dict[str, Any]]:
        out = pace_deltas(source(), min_interval_s=interval, clock=lambda: now[0])
        return [line async for line in out]

    return run(collect())


def texts(lines: list[dict[str, Any]]) -> list[str]:
    return [line.get("text") or line["type"] for line in lines]


def test_it_sends_the_first_delta_at_once_and_then_one_per_interval() -> None:
    lines = [delta("A", 0.0), delta("B", 0.01), delta("C", 0.02), delta("D", 0.06)]
    assert texts(paced(lines, interval=0.05)) == ["A", "BCD"]


def test_it_lets_the_result_replace_a_held_delta() -> None:
    lines = [delta("A", 0.0), delta("B", 0.01), {"type": "result", "result": {}}]
    assert texts(paced(lines, interval=0.05)) == ["A", "result"]


def test_it_sends_a_held_delta_when_the_lines_end_without_a_result() -> None:
    lines = [delta("A", 0.0), delta("B", 0.01), delta("C", 0.02)]
    assert texts(paced(lines, interval=0.05)) == ["A", "BC"]


def test_it_never_holds_or_drops_other_lines() -> None:
    stored = {"type": "stored", "user_message_id": 7}
    error = {"error": "coach_stream_failed", "detail": "cut"}
    lines = [stored, delta("A", 0.0), delta("B", 0.01), error]
    assert paced(lines, interval=0.05) == [stored, lines[1], error]


def test_it_passes_every_delta_with_no_interval() -> None:
    lines = [delta("A", 0.0), delta("B", 0.0), delta("C", 0.0)]
    assert texts(paced(lines, interval=0.0)) == ["A", "B", "C"]


def test_the_appended_deltas_always_spell_the_whole_text() -> None:
    pieces = [delta(str(i % 10), i * 0.013) for i in range(200)]
    out = paced(pieces, interval=0.05)
    assert "".join(line["text"] for line in out) == "".join(p["text"] for p in pieces)
    assert len(out) < len(pieces) / 2
