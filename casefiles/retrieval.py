"""Find the spans of a case file that answer a query, ranked by the case file's own BM25.

``retrieve_spans(query, case_file_id, k)`` is the one entry point. The query
is reduced to its words (``casefiles.terms``: letters and digits; quotes,
operators and punctuation are separators), at most ``MAX_TERMS`` of them. A
span matches when it holds ANY of them.

The ranking's statistics are the case file's: N is its number of spans, the
mean length is over its spans, and a word's document frequency n counts its
spans that hold the word. So a search costs what its case file holds, whatever
the rest of the site holds, and one user's readings never move another's
ranking (tests/casefiles/test_retrieval_parity.py adds other case files and
checks that nothing changes).

A search reads the case file's word index (``casefiles.postings``, kept by
``casefiles.search_index`` as sources are added and removed): per query word,
its document frequency and its postings, each a span id, the span's length and
the word's count there. N, the mean length and the index's check (the span
count and id sum it was counted from) come from one index over the spans'
``(case_file_id, n_words, id)``, never their rows. One SQL does it all; its last
row says whether the index was current. If it was not (spans changed by a path
that kept no index: raw SQL, a bulk delete of spans), the same ranking is
counted from the spans themselves (``_SQLITE_EXACT``, ``_POSTGRES_EXACT``):
slower, never wrong.

Counting from the spans at every search, as before, cost PostgreSQL ~14 ms of
CPU for a 2,000-span case file (each span's row and compressed vector read and
every query word searched in its text); the index costs ~3 ms (docs/architecture.md,
"Case files and retrieval", for the figures).

- SQLite (exact path): a word is in a span when `` w `` is in its padded ``search_text``.
- PostgreSQL (exact path): the stored ``search_vector`` (migration 0004) says cheaply
  which spans hold any word (``to_tsquery('simple', 'w1 | w2')``); only those are
  counted. The read is fenced (a materialised CTE) so no plan walks a
  site-wide list.

Both rank by the BM25 FTS5 documents (Robertson & Zaragoza 2009, "The
Probabilistic Relevance Framework: BM25 and Beyond", eq. 3.15: k1 = 1.2,
b = 0.75, idf ``ln((N - n + 0.5) / (n + 0.5))`` floored at 1e-6, so a word
most spans hold weighs almost nothing), written once in SQL for both. A word's
frequency in a span is the number of times it is among the span's words.
PostgreSQL's ``ts_rank`` is not used: it has no idf. Scores are rounded to nine
decimals and ties broken by span id, so the two give the same ranked answer,
equal to a BM25 in Python (tests/casefiles/test_retrieval_parity.py).

Nothing the user types can make either query fail: only words of letters and
digits reach SQL, and as bound parameters.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from django.db import connection

from casefiles.terms import MAX_TERMS, query_terms

__all__ = ["MAX_K", "MAX_TERMS", "SpanHit", "query_terms", "retrieve_spans"]

logger = logging.getLogger(__name__)

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

    @property
    def ordinal(self) -> int:
        """The span's number in its source (the part of the key after the dot)."""
        return int(self.key.rsplit(".", 1)[1])


# The BM25 both databases compute, summed over the query words a span holds: ``w`` the
# word's idf, ``tf.f`` its count in the span, ``tf.n_words`` the span's length,
# ``stats.avgdl`` the case file's mean span length.
def _bm25(w: str) -> str:
    return f"""SUM(
        {w} * tf.f * {K1 + 1}
        / (tf.f + {K1} * ({1 - B} + {B} * CAST(tf.n_words AS DOUBLE PRECISION) / stats.avgdl))
    )"""


def _rounded(w: str, postgres: bool) -> str:
    """The score rounded to nine decimals, so that both databases rank ties alike.

    PostgreSQL rounds in float8 (``round(x * 1e9) / 1e9``): a cast to numeric
    for every span holding a query word was a quarter of the query's time.
    """
    if postgres:
        return f"ROUND({_bm25(w)} * 1e9) / 1e9"
    return f"ROUND({_bm25(w)}, 9)"


# idf from the case file's N and a word's document frequency ``df``, floored as FTS5 does.
_IDF = """CASE WHEN LN((stats.n - {df} + 0.5) / ({df} + 0.5)) <= 0 THEN 1e-6
            ELSE LN((stats.n - {df} + 0.5) / ({df} + 0.5)) END"""


# The end of both paths: the best ``k`` spans by score (ties by id), with what a hit shows.
_TOP_SPANS = """    GROUP BY tf.id
    ORDER BY score DESC, tf.id
    LIMIT %(k)s
)
SELECT s.id, s.ordinal, s.source_id, src.title, s.start, s."end", s.text, top.score
FROM top
JOIN casefiles_span s ON s.id = top.id
JOIN casefiles_source src ON src.id = s.source_id
"""


def _indexed(*, postings: str, code: str, words: str, postgres: bool) -> str:
    """The fast path, from the case file's word index (casefiles.postings, .search_index).

    N and the mean length come from the ``casefile_span_lengths`` index alone,
    and so do the span count and id sum the index is checked against; each
    query word's row gives its df and its postings, unpacked here (``postings``
    lists them as rows, ``code`` names one). A last row (id NULL) says whether the
    index was current (1) or not (0): if not, the query matched nothing and
    ``_exact`` answers instead.
    """
    return f"""
WITH live AS MATERIALIZED (
    SELECT COUNT(*) AS n, COALESCE(SUM(n_words), 0) AS total, COALESCE(SUM(id), 0) AS ids
    FROM casefiles_span WHERE case_file_id = %(case_file)s
),
stats AS MATERIALIZED (
    SELECT CAST(live.n AS DOUBLE PRECISION) AS n,
           CASE WHEN live.n > 0 THEN CAST(live.total AS DOUBLE PRECISION) / live.n ELSE 1 END
               AS avgdl,
           CASE WHEN COALESCE(ix.spans, 0) = live.n AND COALESCE(ix.id_sum, 0) = live.ids
               THEN 1 ELSE 0 END AS fresh
    FROM live LEFT JOIN casefiles_searchindex ix ON ix.case_file_id = %(case_file)s
),
idf AS MATERIALIZED (
    SELECT {_IDF.format(df="t.df")} AS w, t.postings
    FROM casefiles_searchterm t CROSS JOIN stats
    WHERE t.case_file_id = %(case_file)s AND t.term IN ({words}) AND stats.fresh = 1
),
tf AS (
    SELECT idf.w, {code} / 16777216 AS id, ({code} / 4096) %% 4096 AS n_words,
           {code} %% 4096 AS f
    FROM idf CROSS JOIN {postings}
),
top AS (
    SELECT tf.id, {_rounded("tf.w", postgres)} AS score
    FROM tf CROSS JOIN stats
{_TOP_SPANS}UNION ALL
SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, stats.fresh FROM stats
"""


def _exact_rest(postgres: bool) -> str:
    """The rest of the exact query, from ``tf`` (spans holding a word: id, length, word, count)."""
    return f"""
idf AS MATERIALIZED (
    SELECT d.pat, {_IDF.format(df="d.df")} AS w
    FROM (
        SELECT tf.pat, COUNT(*) AS df
        FROM tf GROUP BY tf.pat
    ) AS d CROSS JOIN stats
),
top AS (
    SELECT tf.id, {_rounded("idf.w", postgres)} AS score
    FROM tf JOIN idf ON idf.pat = tf.pat CROSS JOIN stats
{_TOP_SPANS}"""


_SQLITE = _indexed(
    postings="json_each('[' || idf.postings || ']') AS p",
    code="p.value",
    words="SELECT value FROM json_each(%(terms)s)",
    postgres=False,
)
_POSTGRES = _indexed(
    postings="unnest(string_to_array(idf.postings, ',')::bigint[]) AS p(code)",
    code="p.code",
    words="SELECT unnest(%(terms)s::text[])",
    postgres=True,
)

# The exact path, counted from the spans themselves (what the index must agree with; used
# when it is not current). SQLite: the case file's spans by the case_file_id index; a word
# is in a span when its padded pattern is in ``search_text`` (exactly the words FTS5 would
# match).
_SQLITE_EXACT = """
WITH terms AS MATERIALIZED (SELECT ' ' || value || ' ' AS pat FROM json_each(%(terms)s)),
stats AS MATERIALIZED (
    SELECT CAST(COUNT(*) AS REAL) AS n, CAST(COALESCE(AVG(n_words), 0) AS REAL) AS avgdl
    FROM casefiles_span WHERE case_file_id = %(case_file)s
),
tf AS MATERIALIZED (
    SELECT s.id, s.n_words, terms.pat,
           (LENGTH(s.search_text) - LENGTH(REPLACE(s.search_text, terms.pat, '')))
           / LENGTH(terms.pat) AS f
    FROM casefiles_span s CROSS JOIN terms
    WHERE s.case_file_id = %(case_file)s AND INSTR(s.search_text, terms.pat) > 0
),""" + _exact_rest(postgres=False)

# PostgreSQL: the case file's spans read once (fenced, so no plan walks a site-wide list);
# the stored vector says cheaply which of them hold a query word, and only those carry
# their words on to be counted.
_POSTGRES_EXACT = """
WITH terms AS MATERIALIZED (
    SELECT ' ' || t.term || ' ' AS pat FROM unnest(%(terms)s::text[]) AS t(term)
),
mine AS MATERIALIZED (
    SELECT s.id, s.n_words,
           CASE WHEN s.search_vector @@ to_tsquery('simple', %(any)s) THEN s.search_text END AS words
    FROM casefiles_span s
    WHERE s.case_file_id = %(case_file)s
),
stats AS MATERIALIZED (
    SELECT COUNT(*)::float8 AS n, COALESCE(AVG(n_words), 0)::float8 AS avgdl FROM mine
),
tf AS MATERIALIZED (
    SELECT c.id, c.n_words, c.pat, c.f
    FROM (
        SELECT m.id, m.n_words, terms.pat,
               (OCTET_LENGTH(m.words) - OCTET_LENGTH(REPLACE(m.words, terms.pat, '')))
               / OCTET_LENGTH(terms.pat) AS f
        FROM mine m CROSS JOIN terms
        WHERE m.words IS NOT NULL
    ) AS c
    WHERE c.f > 0
),""" + _exact_rest(postgres=True)


def retrieve_spans(query: str, case_file_id: int, k: int = 8) -> list[SpanHit]:
    """The ``k`` (at most ``MAX_K``) best spans of the case file for ``query``, best first."""
    terms = query_terms(query)
    k = max(1, min(int(k), MAX_K))
    if not terms:
        return []
    postgres = connection.vendor == "postgresql"
    # Words of letters and digits only (casefiles.terms): no operator can come from the user.
    params = {
        "terms": terms if postgres else json.dumps(terms),
        "any": " | ".join(terms),
        "case_file": case_file_id,
        "k": k,
    }
    with connection.cursor() as cursor:
        cursor.execute(_POSTGRES if postgres else _SQLITE, params)
        rows = cursor.fetchall()
        if not any(row[0] is None and row[7] == 1 for row in rows):
            # The index missed a change to the spans: count from the spans themselves.
            logger.warning("case file %s: word index not current, searched its spans", case_file_id)
            cursor.execute(_POSTGRES_EXACT if postgres else _SQLITE_EXACT, params)
            rows = cursor.fetchall()
    ranked = sorted((row for row in rows if row[0] is not None), key=lambda r: (-r[7], r[0]))
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
        for row in ranked
    ]
