"""Small server-rendered line charts for the tournament pages.

Pure geometry, no Django: a series of numbers becomes SVG coordinates in a
fixed view box, which a template draws as ``<polyline>`` and ``<circle>``
elements (no script, no inline style: the Content-Security-Policy allows
neither). Each chart is paired on its page with a table of the same numbers,
for screen readers and for people who want the exact values.

The y axis is linear between ``low`` and ``high`` (clamped), the x axis
spreads the points evenly; SVG's y grows downwards, so y is flipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Chart", "Point", "Series", "line_chart"]

WIDTH = 320
HEIGHT = 160
PAD = 24


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: float
    label: str


@dataclass(frozen=True)
class Series:
    name: str
    points: tuple[Point, ...]
    css_class: str

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:g},{p.y:g}" for p in self.points)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: tuple[Series, ...]
    low: float
    high: float
    # (y, label) of the horizontal grid lines: low, middle, high.
    ticks: tuple[tuple[float, str], ...]
    baseline: float
    left: float
    right: float


def _y(value: float, low: float, high: float) -> float:
    span = high - low or 1.0
    clamped = min(high, max(low, value))
    return round(HEIGHT - PAD - (clamped - low) / span * (HEIGHT - 2 * PAD), 2)


def _x(index: int, count: int) -> float:
    if count <= 1:
        return WIDTH / 2
    return round(PAD + index * (WIDTH - 2 * PAD) / (count - 1), 2)


def line_chart(
    series: Mapping[str, Sequence[tuple[str, float]]],
    *,
    low: float | None = None,
    high: float | None = None,
) -> Chart:
    """A chart of named series of (label, value); the x axis is the position in the longest one.

    Without ``low``/``high`` the range is the data's, widened by a little so
    a flat line is not drawn on the frame.
    """
    values = [v for points in series.values() for _, v in points]
    lo = low if low is not None else (min(values) if values else 0.0)
    hi = high if high is not None else (max(values) if values else 1.0)
    if low is None and high is None:
        margin = max(1.0, (hi - lo) * 0.1)
        lo, hi = lo - margin, hi + margin
    if hi <= lo:
        hi = lo + 1.0
    count = max((len(points) for points in series.values()), default=0)
    drawn = tuple(
        Series(
            name=name,
            points=tuple(
                Point(x=_x(i, count), y=_y(v, lo, hi), value=v, label=label)
                for i, (label, v) in enumerate(points)
            ),
            css_class=f"series-{n % 6}",
        )
        for n, (name, points) in enumerate(series.items())
    )
    middle = (lo + hi) / 2
    ticks = tuple((_y(v, lo, hi), f"{v:.0f}") for v in (lo, middle, hi))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        series=drawn,
        low=lo,
        high=hi,
        ticks=ticks,
        baseline=_y(lo, lo, hi),
        left=PAD,
        right=WIDTH - PAD,
    )
