"""Split a source's text into spans: exact character offsets, bounded size.

A span is what an evidence chain points at, so its offsets must be exact
(``text[start:end] == span``) and stable: the same text always gives the same
spans. Paragraphs (blank-line separated) are the first cut; a paragraph longer
than ``max_chars`` is cut at sentence ends (``. ! ?`` followed by space), and a
sentence longer than ``max_chars`` at the last space before the limit (or hard
at the limit). Leading and trailing whitespace is left out of every span;
text that is only whitespace gives no span.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_SPAN_CHARS", "SpanCut", "split_spans"]

MAX_SPAN_CHARS = 700
_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'»”)\]]*\s+")


@dataclass(frozen=True, slots=True)
class SpanCut:
    start: int
    end: int


def _trim(text: str, start: int, end: int) -> SpanCut | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return SpanCut(start, end) if end > start else None


def _pieces(text: str, start: int, end: int, max_chars: int) -> list[SpanCut]:
    """Cut [start, end) into pieces of at most max_chars, preferring sentence ends."""
    cuts: list[SpanCut] = []
    while end - start > max_chars:
        limit = start + max_chars
        boundary = None
        for match in _SENTENCE_END.finditer(text, start, limit + 1):
            if match.start() > start:
                boundary = match.start()
        if boundary is None:
            space = text.rfind(" ", start + 1, limit)
            boundary = space if space > start else limit
        if (cut := _trim(text, start, boundary)) is not None:
            cuts.append(cut)
        start = boundary
    if (cut := _trim(text, start, end)) is not None:
        cuts.append(cut)
    return cuts


def _merge(text: str, cuts: list[SpanCut], max_chars: int) -> list[SpanCut]:
    """Join consecutive short sentences of a paragraph back up to max_chars."""
    merged: list[SpanCut] = []
    for cut in cuts:
        if merged and cut.end - merged[-1].start <= max_chars:
            merged[-1] = SpanCut(merged[-1].start, cut.end)
        else:
            merged.append(cut)
    return merged


def split_spans(
    text: str, *, max_chars: int = MAX_SPAN_CHARS, stop_after: int | None = None
) -> list[SpanCut]:
    """The spans of ``text`` in order; each at most ``max_chars`` long, none overlapping.

    ``stop_after``: stop once there are more spans than that (the caller refuses such a
    text, and a million one-word paragraphs need not all be cut to know it).
    """
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    spans: list[SpanCut] = []
    start = 0
    paragraphs = _PARAGRAPH.finditer(text)
    while True:
        match = next(paragraphs, None)
        end = match.start() if match is not None else len(text)
        spans += _merge(text, _pieces(text, start, end, max_chars), max_chars)
        if match is None or (stop_after is not None and len(spans) > stop_after):
            return spans
        start = match.end()
