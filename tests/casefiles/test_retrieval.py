"""retrieve_spans: a real index (FTS5 / PostgreSQL FTS), ranked, safe for any query.

The same module runs on SQLite by default and on PostgreSQL in CI
(DATABASE_URL): the known answers below are the same on both.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casefiles import services
from casefiles.demo import load_demo_case_file
from casefiles.retrieval import query_terms, retrieve_spans

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    return load_demo_case_file(owner=get_user_model().objects.create_user("demo"))


def _titles(hits) -> list[str]:
    return [hit.source_title for hit in hits]


def test_it_ranks_the_passage_that_uses_the_words_most_first(demo) -> None:
    hits = retrieve_spans("nitrogen dioxide monitoring stations", demo.pk, 3)
    assert hits[0].text.startswith("Roadside nitrogen dioxide fell by 12%")
    assert hits[0].text == hits[0].text.strip() and hits[0].end - hits[0].start == len(hits[0].text)


def test_it_finds_every_source_that_mentions_a_word(demo) -> None:
    hits = retrieve_spans("shops", demo.pk, 10)
    assert _titles(hits) == ["Retail footfall in the charging zone"]
    # The study's own text does not name itself; the two articles quoting it do.
    assert {h.source_title for h in retrieve_spans("Transport Institute", demo.pk, 10)} == {
        "City traffic down a fifth, study finds",
        "Charge cleared the air, report says",
    }


def test_it_gives_the_same_offsets_the_source_text_has(demo) -> None:
    for hit in retrieve_spans("income households car trips", demo.pk, 5):
        source = demo.sources.get(pk=hit.source_id)
        assert source.text[hit.start : hit.end] == hit.text


def test_it_keeps_each_case_file_to_itself(demo) -> None:
    other = services.create_case_file(owner=demo.owner, title="Other")
    services.add_source(case_file=other, title="Bees", text="Bees make honey in hives.")
    assert retrieve_spans("honey", demo.pk) == []
    assert _titles(retrieve_spans("honey", other.pk)) == ["Bees"]


def test_it_answers_nothing_for_a_query_with_no_words(demo) -> None:
    assert retrieve_spans("  \"'* () : - ^ ", demo.pk) == []


def test_it_matches_accented_words_as_written() -> None:
    owner = get_user_model().objects.create_user("ana")
    case_file = services.create_case_file(owner=owner, title="ES")
    services.add_source(case_file=case_file, title="ES", text="La contaminación bajó en el centro.")
    assert len(retrieve_spans("contaminación", case_file.pk)) == 1


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(query=st.text(max_size=300))
def test_it_never_fails_on_any_query(demo, query) -> None:
    hits = retrieve_spans(query, demo.pk, 5)
    assert len(hits) <= 5
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_query_terms_keep_words_only_and_bound_their_number() -> None:
    assert query_terms('NEAR("a" OR b*) c:d') == ["near", "a", "or", "b", "c", "d"]
    assert len(query_terms(" ".join(f"w{i}" for i in range(100)))) == 24
