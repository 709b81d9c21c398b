"""PostgreSQL and SQLite give the same ranked answer: both equal one BM25 written here.

This module runs on SQLite by default and on PostgreSQL with DATABASE_URL
(CI runs both). The reference below is plain Python over the spans' words,
independent of either database's SQL, so agreeing with it on one backend and
on the other means the two agree with each other, score for score.
"""

from __future__ import annotations

import math

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casefiles import services
from casefiles.demo import load_demo_case_file
from casefiles.models import Span
from casefiles.retrieval import retrieve_spans
from casefiles.terms import query_terms, words

pytestmark = pytest.mark.django_db

EXTRA = [
    ("Bus lanes", "Bus lanes and bus priority cut bus journey times. Cycle-lanes grew too."),
    ("Revenue", "Net revenue was 1.2 billion; the 1.2 figure is net of costs."),
    ("Acentos", "La contaminación bajó. Contaminacion sin tilde no es lo mismo."),
    ("Repeats", "zone zone zone zone. A zone-wide charge."),
]
QUERIES = [
    "traffic zone",
    "bus speeds",
    "congestion charge zone traffic",
    "income drivers pay",
    "1.2 billion",
    "cycle-lanes",
    "contaminación",
    "Transport Institute study 22%",
    '"shops" OR footfall NEAR(survey)',
    "ZONE",
]


def _reference(query: str, case_file_id: int, k: int) -> list[tuple[str, float]]:
    """SQLite FTS5's BM25 in Python: k1 1.2, b 0.75, idf floored at 1e-6, stats of every span."""
    every = list(Span.objects.order_by("id"))
    docs = {span.pk: words(span.text) for span in every}
    n = len(every)
    avgdl = sum(len(d) for d in docs.values()) / n
    mine = {span.pk: span.key for span in every if span.case_file_id == case_file_id}
    scores: dict[int, float] = {}
    for term in query_terms(query):
        holders = [pk for pk, d in docs.items() if term in d]
        idf = math.log((n - len(holders) + 0.5) / (len(holders) + 0.5))
        idf = idf if idf > 0 else 1e-6
        for pk in holders:
            if pk in mine:
                f, dl = docs[pk].count(term), len(docs[pk])
                scores[pk] = scores.get(pk, 0.0) + idf * f * 2.2 / (
                    f + 1.2 * (0.25 + 0.75 * dl / avgdl)
                )
    ranked = sorted(scores.items(), key=lambda item: (-round(item[1], 9), item[0]))[:k]
    return [(mine[pk], round(score, 9)) for pk, score in ranked]


@pytest.fixture
def corpus():
    case_file = load_demo_case_file(owner=get_user_model().objects.create_user("demo"))
    for title, text in EXTRA:
        services.add_source(case_file=case_file, title=title, text=text)
    # Another case file's spans count in the statistics (as in FTS5), the same on both.
    other = services.create_case_file(owner=case_file.owner, title="Noise")
    services.add_source(case_file=other, title="Noise", text="traffic zone bus " * 40)
    return case_file


@pytest.mark.parametrize("query", QUERIES)
def test_it_ranks_exactly_as_the_reference_bm25(corpus, query) -> None:
    hits = retrieve_spans(query, corpus.pk, 8)
    expected = _reference(query, corpus.pk, 8)
    assert [(h.key, pytest.approx(h.score, abs=1e-8)) for h in hits] == expected, connection.vendor
    assert hits, query


def test_it_gives_these_known_answers_on_every_database(corpus) -> None:
    def first(query: str) -> str:
        return retrieve_spans(query, corpus.pk, 1)[0].source_title

    assert first("1.2 billion") == "Revenue"
    assert first("cycle lanes") == "Bus lanes"
    assert first("bus") == "Bus lanes"
    assert first("zone") == "Repeats"
    assert first("households income") == "Who pays the charge?"
    # Accents are kept: "contaminacion" and "contaminación" are different words.
    assert [h.text for h in retrieve_spans("contaminacion", corpus.pk)] == [EXTRA[2][1]]
    assert {h.source_title for h in retrieve_spans("contaminación", corpus.pk)} == {"Acentos"}


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    query=st.lists(
        st.sampled_from(
            ["zone", "traffic", "bus", "the", "of", "22", "fell", "income", "shops", "x", "é"]
        ),
        min_size=1,
        max_size=6,
    ).map(" ".join)
)
def test_it_agrees_with_the_reference_on_any_mix_of_words(corpus, query) -> None:
    hits = retrieve_spans(query, corpus.pk, 10)
    assert [(h.key, pytest.approx(h.score, abs=1e-8)) for h in hits] == _reference(
        query, corpus.pk, 10
    )
