"""What the case file pages show, computed from rows (no HTML here: templates escape)."""

from __future__ import annotations

from dataclasses import dataclass

from casefiles.retrieval import SpanHit
from casefiles.terms import query_terms

__all__ = ["HighlightedHit", "TextPiece", "highlight_hits", "mark_terms"]


@dataclass(frozen=True, slots=True)
class TextPiece:
    text: str
    marked: bool


@dataclass(frozen=True, slots=True)
class HighlightedHit:
    hit: SpanHit
    pieces: list[TextPiece]


def mark_terms(text: str, terms: list[str]) -> list[TextPiece]:
    """``text`` cut into pieces, the words that match a query term marked."""
    import re

    if not terms:
        return [TextPiece(text, False)]
    pattern = re.compile(r"\b(" + "|".join(re.escape(t) for t in terms) + r")\b", re.IGNORECASE)
    pieces: list[TextPiece] = []
    last = 0
    for match in pattern.finditer(text):
        if match.start() > last:
            pieces.append(TextPiece(text[last : match.start()], False))
        pieces.append(TextPiece(match.group(0), True))
        last = match.end()
    if last < len(text):
        pieces.append(TextPiece(text[last:], False))
    return pieces


def highlight_hits(hits: list[SpanHit], query: str) -> list[HighlightedHit]:
    terms = query_terms(query)
    return [HighlightedHit(hit=hit, pieces=mark_terms(hit.text, terms)) for hit in hits]
