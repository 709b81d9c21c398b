"""Find the spans of a case file that answer a query: a real full-text index.

``retrieve_spans(query, case_file_id, k)`` is the one entry point. The query
is reduced to its words (``casefiles.terms``: letters and digits; quotes,
operators and punctuation are separators), at most ``MAX_TERMS`` of them. A
span matches when it holds ANY of them; the database's full-text index finds
the matching spans:

- SQLite: the external-content FTS5 table ``casefiles_span_fts`` (migration
  0003, kept in step with ``casefiles_span`` by triggers) with ``"w1" OR "w2"``,
  ranked by FTS5's own ``bm25()``;
- PostgreSQL: the stored, GIN-indexed ``search_vector`` (migration 0004) with
  ``to_tsquery('simple', 'w1 | w2')``, ranked by the same BM25 written in SQL.

Both index ``Span.search_text``, the words as ``casefiles.terms`` cuts them, so
they match the same spans, and both rank by FTS5's BM25 (Robertson & Zaragoza
2009, "The Probabilistic Relevance Framework: BM25 and Beyond", eq. 3.15, as
SQLite's fts5 documents it: k1 = 1.2, b = 0.75, idf ``ln((N - n + 0.5) /
(n + 0.5))`` floored at 1e-6, so a word most spans hold weighs almost
nothing). As in FTS5, N, the mean span length and n count every span of the
index, not only this case file's. PostgreSQL's ``ts_rank`` is not used: it has
no idf and would rank differently. On PostgreSQL a word's frequency in a span
is the number of `` w `` in its padded ``search_text`` (as many as FTS5 counts).
Scores are rounded to nine decimals and ties broken by span id, so the two
give the same ranked answer (tests/casefiles/test_retrieval_parity.py).

Nothing the user types can make either query fail: only words of letters and
digits reach SQL, and as bound parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from casefiles.terms import MAX_TERMS, query_terms

__all__ = ["MAX_K", "MAX_TERMS", "SpanHit", "query_terms", "retrieve_spans"]

MAX_K = 50
# FTS5's bm25() constants (fixed in SQLite), written out for the PostgreSQL twin.
K1 = 1.2
B = 0.75


@dataclass(frozen=True, slots=True)
class SpanHit:
    """One ranked span: ``text == Source.text[start:end]``; ``key`` is its citable id."""

    span_id: int
    key: str
    source_id: int
    source_title: str
    start: int
    end: int
    text: str
    score: float


_SQLITE = """
WITH top AS MATERIALIZED (
    SELECT s.id, ROUND(-bm25(casefiles_span_fts), 9) AS score
    FROM casefiles_span_fts
    CROSS JOIN casefiles_span s ON s.id = casefiles_span_fts.rowid  -- the index first
    WHERE casefiles_span_fts MATCH %s AND s.case_file_id = %s
    ORDER BY score DESC, s.id
    LIMIT %s
)
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text, top.score
FROM top
JOIN casefiles_span s ON s.id = top.id
JOIN casefiles_source src ON src.id = s.source_id
ORDER BY top.score DESC, s.id
"""

_POSTGRES = f"""
WITH q AS MATERIALIZED (SELECT to_tsquery('simple', %s) AS query, %s::text[] AS terms),
stats AS MATERIALIZED (
    SELECT COUNT(*)::float8 AS n, COALESCE(AVG(n_words), 0)::float8 AS avgdl
    FROM casefiles_span
),
idf AS MATERIALIZED (
    SELECT ' ' || t.term || ' ' AS pat, CASE WHEN x.w <= 0 THEN 1e-6 ELSE x.w END AS w
    FROM q, stats, unnest(q.terms) AS t(term),
         LATERAL (SELECT COUNT(*)::float8 AS n FROM casefiles_span d
                  WHERE d.search_vector @@ to_tsquery('simple', t.term)) AS df,
         LATERAL (SELECT LN((stats.n - df.n + 0.5) / (df.n + 0.5)) AS w) AS x
),
top AS (
    SELECT s.id, ROUND(SUM(
        idf.w * tf.f * {K1 + 1}
        / (tf.f + {K1} * ({1 - B} + {B} * s.n_words / stats.avgdl))
    )::numeric, 9)::float8 AS score
    FROM q, stats, casefiles_span s CROSS JOIN idf
         CROSS JOIN LATERAL (
             SELECT (LENGTH(s.search_text) - LENGTH(REPLACE(s.search_text, idf.pat, '')))
                    / LENGTH(idf.pat) AS f
         ) AS tf
    WHERE s.case_file_id = %s AND s.search_vector @@ q.query AND tf.f > 0
    GROUP BY s.id
    ORDER BY score DESC, s.id
    LIMIT %s
)
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text, top.score
FROM top
JOIN casefiles_span s ON s.id = top.id
JOIN casefiles_source src ON src.id = s.source_id
ORDER BY top.score DESC, s.id
"""


def retrieve_spans(query: str, case_file_id: int, k: int = 8) -> list[SpanHit]:
    """The ``k`` (at most ``MAX_K``) best spans of the case file for ``query``, best first."""
    terms = query_terms(query)
    k = max(1, min(int(k), MAX_K))
    if not terms:
        return []
    if connection.vendor == "postgresql":
        # Words of letters and digits only (casefiles.terms): no operator can come from the user.
        sql, params = _POSTGRES, [" | ".join(terms), terms, case_file_id, k]
    else:
        sql, params = _SQLITE, [" OR ".join(f'"{term}"' for term in terms), case_file_id, k]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
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
