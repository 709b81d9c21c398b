"""PostgreSQL and SQLite give the same ranked answer: both equal one BM25 written here.

The BM25 is the case file's own: N, the mean length and each word's document
frequency count only its spans, so adding or removing another case file's spans
changes no ranking, and adding or removing one of its sources is seen at once.

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
    """FTS5's BM25 in Python (k1 1.2, b 0.75, idf floored at 1e-6) over this case file only.

    N, the mean span length and each word's document frequency count the case
    file's own spans: another case file's readings weigh nothing.
    """
    mine = list(Span.objects.filter(case_file_id=case_file_id).order_by("id"))
    docs = {span.pk: words(span.text) for span in mine}
    keys = {span.pk: span.key for span in mine}
    n = len(mine)
    avgdl = sum(len(d) for d in docs.values()) / n
    scores: dict[int, float] = {}
    for term in query_terms(query):
        holders = [pk for pk, d in docs.items() if term in d]
        idf = math.log((n - len(holders) + 0.5) / (len(holders) + 0.5))
        idf = idf if idf > 0 else 1e-6
        for pk in holders:
            f, dl = docs[pk].count(term), len(docs[pk])
            scores[pk] = scores.get(pk, 0.0) + idf * f * 2.2 / (
                f + 1.2 * (0.25 + 0.75 * dl / avgdl)
            )
    ranked = sorted(scores.items(), key=lambda item: (-round(item[1], 9), item[0]))[:k]
    return [(keys[pk], round(score, 9)) for pk, score in ranked]


@pytest.fixture
def corpus():
    case_file = load_demo_case_file(owner=get_user_model().objects.create_user("demo"))
    for title, text in EXTRA:
        services.add_source(case_file=case_file, title=title, text=text)
    # Another case file's spans, full of the queries' words: they must weigh nothing.
    other = services.create_case_file(owner=case_file.owner, title="Noise")
    services.add_source(case_file=other, title="Noise", text="traffic zone bus " * 40)
    return case_file


def _ranking(case_file_id: int) -> list[list[tuple[str, float]]]:
    return [[(h.key, h.score) for h in retrieve_spans(q, case_file_id, 8)] for q in QUERIES]


def test_it_ranks_the_same_whatever_other_case_files_hold(corpus) -> None:
    before = _ranking(corpus.pk)
    owner = get_user_model().objects.create_user("someone-else")
    for number in range(3):
        other = services.create_case_file(owner=owner, title=f"Other {number}")
        services.add_source(
            case_file=other,
            title="Crowd",
            text="\n\n".join(
                f"Traffic zone bus {n}: the charge, income and shops of 1.2 billion drivers."
                for n in range(60)
            ),
        )
        services.add_source(case_file=other, title="Zones", text="zone " * 300)
    assert Span.objects.exclude(case_file=corpus).count() > 120
    assert _ranking(corpus.pk) == before  # scores too, to the last decimal
    # ...and removing them changes nothing either.
    Span.objects.exclude(case_file=corpus).delete()
    assert _ranking(corpus.pk) == before


def test_it_follows_the_case_file_when_a_source_is_added_or_removed(corpus) -> None:
    added = services.add_source(
        case_file=corpus, title="More zones", text="The zone again.\n\nZone and traffic."
    )
    assert [h.key for h in retrieve_spans("zone", corpus.pk, 8)] == [
        key for key, _ in _reference("zone", corpus.pk, 8)
    ]
    with_it = _ranking(corpus.pk)
    added.delete()
    without = _ranking(corpus.pk)
    assert without != with_it
    for query, hits in zip(QUERIES, without, strict=True):
        assert [(key, pytest.approx(score, abs=1e-8)) for key, score in hits] == _reference(
            query, corpus.pk, 8
        )


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
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
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
