"""Find the spans of a case file that answer a query: a real full-text index.

``retrieve_spans(query, case_file_id, k)`` is the one entry point. The query
is reduced to its words (letters and digits; everything else, operators and
quotes included, is a separator), at most ``MAX_TERMS`` of them, lower-cased;
a span matches when it contains ANY of them, and spans are ranked by the
database's own relevance function:

- PostgreSQL: ``to_tsvector('simple', text) @@ to_tsquery('simple', 'w1 | w2')``
  over a GIN expression index, ranked by ``ts_rank_cd`` (cover density);
- SQLite: the FTS5 table ``casefiles_span_fts`` (migration 0002) with
  ``"w1" OR "w2"``, ranked by ``bm25``.

Ties are broken by span id, so answers are stable. Both use the same word
splitting (no stemming, accents kept), so they match the same spans; the
order of spans with different scores agrees when the evidence is clear-cut
(tests/casefiles/test_retrieval.py runs the same corpus on both).
Nothing the user types can make either query fail: only words reach SQL,
and as bound parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import connection

__all__ = ["MAX_TERMS", "SpanHit", "query_terms", "retrieve_spans"]

MAX_TERMS = 24
MAX_K = 50
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class SpanHit:
    span_id: int
    key: str
    source_id: int
    source_title: str
    start: int
    end: int
    text: str
    score: float


def query_terms(query: str) -> list[str]:
    """The query's distinct words, lower-cased, in order, at most MAX_TERMS."""
    seen: list[str] = []
    for word in _WORD.findall((query or "")[:2000].lower()):
        word = word.strip("_")
        if word and word not in seen:
            seen.append(word)
        if len(seen) == MAX_TERMS:
            break
    return seen


_POSTGRES = """
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text,
       ts_rank_cd(to_tsvector('simple', s.text), q) AS score
FROM casefiles_span s
JOIN casefiles_source src ON src.id = s.source_id,
     to_tsquery('simple', %s) q
WHERE s.case_file_id = %s AND to_tsvector('simple', s.text) @@ q
ORDER BY score DESC, s.id
LIMIT %s
"""

_SQLITE = """
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text,
       -bm25(casefiles_span_fts) AS score
FROM casefiles_span_fts
JOIN casefiles_span s ON s.id = casefiles_span_fts.rowid
JOIN casefiles_source src ON src.id = s.source_id
WHERE casefiles_span_fts MATCH %s AND s.case_file_id = %s
ORDER BY score DESC, s.id
LIMIT %s
"""


def retrieve_spans(query: str, case_file_id: int, k: int = 8) -> list[SpanHit]:
    """The ``k`` best spans of the case file for ``query``, best first."""
    terms = query_terms(query)
    k = max(1, min(int(k), MAX_K))
    if not terms:
        return []
    if connection.vendor == "postgresql":
        # Words only (\w+), so no tsquery operator can come from the user.
        sql, match = _POSTGRES, " | ".join(terms)
    else:
        sql, match = _SQLITE, " OR ".join('"' + term.replace('"', "") + '"' for term in terms)
    with connection.cursor() as cursor:
        cursor.execute(sql, [match, case_file_id, k])
        rows = cursor.fetchall()
    return [
        SpanHit(
            span_id=row[0],
            key=f"S{row[2]}.{row[1]}",
            source_id=row[2],
            source_title=row[3],
            start=row[4],
            end=row[5],
            text=row[6],
            score=float(row[7]),
        )
        for row in rows
    ]
