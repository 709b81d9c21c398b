"""Find the spans of a case file that answer a query: a real full-text index.

``retrieve_spans(query, case_file_id, k)`` is the one entry point. The query
is reduced to its words (``casefiles.terms``: letters and digits; quotes,
operators and punctuation are separators), at most ``MAX_TERMS`` of them. A
span matches when it holds ANY of them; the database's full-text index finds
the matching spans:

- PostgreSQL: ``to_tsvector('simple', search_text) @@ to_tsquery('simple',
  'w1 | w2')`` over a GIN expression index (migration 0003);
- SQLite: the external-content FTS5 table ``casefiles_span_fts`` with
  ``"w1" OR "w2"``, kept in step with ``casefiles_span`` by triggers.

Both index ``Span.search_text``, the words as ``casefiles.terms`` cuts them, so
they match the same spans. Ranking is Okapi BM25 (Robertson & Zaragoza 2009,
"The Probabilistic Relevance Framework: BM25 and Beyond", eq. 3.15; k1 = 1.2,
b = 0.75, the Lucene idf ``ln(1 + (N - n + 0.5) / (n + 0.5))``, which is never
negative), computed by the database in one SQL statement over the matching
spans with statistics of THIS case file only (N spans, their mean length; n
spans holding the word). The term frequency is the count of `` w `` in the
padded ``search_text``. Neither ``ts_rank`` nor FTS5's ``bm25()`` is used:
the first has no idf, the second counts every case file of the table, and
both backends must give the same ranked answer. Scores are rounded to nine
decimals and ties broken by span id, so answers are stable and equal.

Nothing the user types can make either query fail: only words of letters and
digits reach SQL, and as bound parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from casefiles.terms import MAX_TERMS, query_terms

__all__ = ["MAX_K", "MAX_TERMS", "SpanHit", "query_terms", "retrieve_spans"]

MAX_K = 50
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


# {terms}: one "(%s, %s)" per term; {matches}: the vendor's index test on span s;
# {contains}: the vendor's substring test; {ln}, {round}: its functions.
_BM25 = """
WITH q(i, pat) AS (VALUES {terms}),
stats AS (
    SELECT COUNT(*) AS n, AVG(n_words) AS avgdl FROM casefiles_span WHERE case_file_id = %s
),
cand AS MATERIALIZED (
    SELECT s.id, s.search_text, s.n_words FROM casefiles_span s
    WHERE s.case_file_id = %s AND {matches}
),
tf AS (
    SELECT c.id, q.i,
           (LENGTH(c.search_text) - LENGTH(REPLACE(c.search_text, q.pat, ''))) / LENGTH(q.pat) AS f
    FROM cand c CROSS JOIN q WHERE {contains}
),
idf AS (
    SELECT tf.i, {ln}(1.0 + (stats.n - COUNT(*) + 0.5) / (COUNT(*) + 0.5)) AS w
    FROM tf CROSS JOIN stats GROUP BY tf.i, stats.n
),
scored AS (
    SELECT tf.id, SUM(
        idf.w * tf.f * {k1p1} / (tf.f + {k1} * ({one_minus_b} + {b} * c.n_words / stats.avgdl))
    ) AS score
    FROM tf JOIN idf ON idf.i = tf.i JOIN cand c ON c.id = tf.id CROSS JOIN stats
    GROUP BY tf.id
)
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text,
       {round} AS score
FROM scored
JOIN casefiles_span s ON s.id = scored.id
JOIN casefiles_source src ON src.id = s.source_id
ORDER BY score DESC, s.id
LIMIT %s
"""

_VENDOR = {
    "postgresql": {
        "matches": "to_tsvector('simple', s.search_text) @@ to_tsquery('simple', %s)",
        "contains": "STRPOS(c.search_text, q.pat) > 0",
        "ln": "LN",
        "round": "ROUND(scored.score::numeric, 9)::float8",
        "pair": "(%s::int, %s::text)",
    },
    "sqlite": {
        "matches": "s.id IN (SELECT rowid FROM casefiles_span_fts WHERE casefiles_span_fts MATCH %s)",
        "contains": "INSTR(c.search_text, q.pat) > 0",
        "ln": "LN",
        "round": "ROUND(scored.score, 9)",
        "pair": "(%s, %s)",
    },
}


def _sql(vendor: str, n_terms: int) -> str:
    parts = _VENDOR[vendor]
    return _BM25.format(
        terms=", ".join([parts["pair"]] * n_terms),
        matches=parts["matches"],
        contains=parts["contains"],
        ln=parts["ln"],
        round=parts["round"],
        k1=K1,
        k1p1=K1 + 1,
        b=B,
        one_minus_b=1 - B,
    )


def _match(vendor: str, terms: list[str]) -> str:
    # Words of letters and digits only (casefiles.terms), so no operator can come from the user.
    if vendor == "postgresql":
        return " | ".join(terms)
    return " OR ".join(f'"{term}"' for term in terms)


def retrieve_spans(query: str, case_file_id: int, k: int = 8) -> list[SpanHit]:
    """The ``k`` (at most ``MAX_K``) best spans of the case file for ``query``, best first."""
    terms = query_terms(query)
    k = max(1, min(int(k), MAX_K))
    if not terms:
        return []
    vendor = "postgresql" if connection.vendor == "postgresql" else "sqlite"
    params: list[object] = []
    for i, term in enumerate(terms):
        params += [i, f" {term} "]
    params += [case_file_id, case_file_id, _match(vendor, terms), k]
    with connection.cursor() as cursor:
        cursor.execute(_sql(vendor, len(terms)), params)
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
