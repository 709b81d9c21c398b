"""Horizontal bar charts for the class analytics pages. Pure geometry.

Numbers become coordinates in a fixed view box; a template draws them as
``<rect>`` and ``<text>`` elements with CSS classes from the admin's
stylesheet. Charting libraries that emit finished SVG (pygal, for one) put a
``<script>`` and a ``<style>`` inside every chart, which this site's
Content-Security-Policy refuses (script-src and style-src 'self', no inline);
bars need little arithmetic, so it is done here and the words stay in the
template, where Django escapes them. Every chart is shown beside a table of
the same numbers: the picture is hidden from screen readers (``aria-hidden``)
and the table, under the same caption, is what they read.

A row is a label and one or more parts; a part's width is its value over
``high`` (the largest row total when not given), so a stacked bar of shares
that sum to 100 fills the bar exactly. Bars are never wider than the plot,
never negative, and an all-zero chart draws empty rows rather than dividing
by zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Bar", "BarChart", "Part", "bar_chart"]

WIDTH = 420
LABEL_WIDTH = 160  # the step or guard name, right-aligned at this x (24 characters at 11px)
VALUE_WIDTH = 56  # the number after the bar
ROW_HEIGHT = 24
BAR_HEIGHT = 14
TOP = 6


@dataclass(frozen=True, slots=True)
class Part:
    x: float
    width: float
    value: float
    css_class: str


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value_text: str
    y: float  # the bar's top
    text_y: float  # the baseline of the row's words
    value_x: float
    parts: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class BarChart:
    width: int
    height: int
    label_x: float
    plot_left: float
    plot_width: float
    bars: tuple[Bar, ...]


def bar_chart(
    rows: Sequence[tuple[str, Sequence[float], str]], *, high: float | None = None
) -> BarChart:
    """Rows of (label, part values, the number to print after the bar), top to bottom."""
    plot_left = LABEL_WIDTH + 6
    plot_width = WIDTH - plot_left - VALUE_WIDTH
    totals = [sum(max(0.0, v) for v in values) for _, values, _ in rows]
    scale_top = high if high is not None and high > 0 else max(totals, default=0.0)
    bars = []
    for index, (label, values, value_text) in enumerate(rows):
        y = TOP + index * ROW_HEIGHT
        x = float(plot_left)
        parts = []
        for n, value in enumerate(values):
            share = max(0.0, value) / scale_top if scale_top > 0 else 0.0
            width = round(min(share * plot_width, plot_left + plot_width - x), 2)
            parts.append(
                Part(x=round(x, 2), width=max(0.0, width), value=value, css_class=f"part-{n}")
            )
            x += max(0.0, width)
        bars.append(
            Bar(
                label=label,
                value_text=value_text,
                y=y,
                text_y=y + BAR_HEIGHT - 3,
                value_x=round(x + 4, 2),
                parts=tuple(parts),
            )
        )
    return BarChart(
        width=WIDTH,
        height=TOP * 2 + max(1, len(rows)) * ROW_HEIGHT,
        label_x=LABEL_WIDTH,
        plot_left=plot_left,
        plot_width=plot_width,
        bars=tuple(bars),
    )
