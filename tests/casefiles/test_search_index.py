"""The case file's word index: searches read it, and it follows the spans however they change.

Runs on SQLite by default and on PostgreSQL with DATABASE_URL. The ranking it
gives is checked against an independent BM25 in test_retrieval_parity.py; here,
that it is the index that answers, that it stays current as sources come and
go, and that a search is still right when something changed spans behind its back.
"""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model

from casefiles import search_index, services
from casefiles.models import SearchIndex, SearchTerm, Span
from casefiles.postings import pack, postings_of, unpack
from casefiles.retrieval import retrieve_spans
from tests.casefiles.test_retrieval_parity import QUERIES, _reference

pytestmark = pytest.mark.django_db

STALE = "word index not current"


@pytest.fixture
def case_file():
    owner = get_user_model().objects.create_user("ida")
    case_file = services.create_case_file(owner=owner, title="Zones")
    services.add_source(
        case_file=case_file,
        title="Zones",
        text="The zone grew.\n\nTraffic in the zone fell.\n\nZone zone zone.",
    )
    services.add_source(case_file=case_file, title="Bus", text="Bus lanes cut bus times.")
    return case_file


def _agrees_with_reference(case_file_id: int) -> None:
    for query in QUERIES:
        hits = retrieve_spans(query, case_file_id, 8)
        assert [(h.key, pytest.approx(h.score, abs=1e-8)) for h in hits] == _reference(
            query, case_file_id, 8
        )


def test_it_packs_a_span_its_length_and_a_words_count_into_one_code() -> None:
    assert unpack(pack(123_456_789, 350, 7)) == (123_456_789, 350, 7)
    with pytest.raises(ValueError):
        pack(1, 4096, 1)
    index = postings_of([(5, " zone  grew  zone "), (9, " bus ")])
    assert {word: [unpack(c) for c in codes] for word, codes in index.items()} == {
        "zone": [(5, 3, 2)],
        "grew": [(5, 3, 1)],
        "bus": [(9, 1, 1)],
    }


def test_it_answers_from_the_index_it_keeps_as_sources_are_added(case_file, caplog) -> None:
    assert search_index.is_current(case_file.pk)
    zone = SearchTerm.objects.get(case_file=case_file, term="zone")
    assert zone.df == 3
    caplog.set_level(logging.WARNING, logger="casefiles.retrieval")
    assert [h.text for h in retrieve_spans("zone", case_file.pk)][0] == "Zone zone zone."
    _agrees_with_reference(case_file.pk)
    assert STALE not in caplog.text  # the index answered, not the fallback


def test_it_rebuilds_the_index_when_a_source_is_removed(
    case_file, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        case_file.sources.get(title="Bus").delete()
    assert search_index.is_current(case_file.pk)
    assert not SearchTerm.objects.filter(case_file=case_file, term="bus").exists()
    assert retrieve_spans("bus", case_file.pk) == []
    _agrees_with_reference(case_file.pk)


def test_it_searches_the_spans_when_they_changed_behind_the_index(case_file, caplog) -> None:
    # A bulk delete of spans sends no signal: the index still lists them.
    Span.objects.filter(case_file=case_file, text__startswith="Zone zone").delete()
    assert not search_index.is_current(case_file.pk)
    caplog.set_level(logging.WARNING, logger="casefiles.retrieval")
    assert [h.text for h in retrieve_spans("zone", case_file.pk)] == [
        "The zone grew.",
        "Traffic in the zone fell.",
    ]
    _agrees_with_reference(case_file.pk)
    assert STALE in caplog.text
    # The next source added puts it right.
    services.add_source(case_file=case_file, title="More", text="A zone again.")
    assert search_index.is_current(case_file.pk)
    assert SearchIndex.objects.get(pk=case_file.pk).spans == 4


def test_it_indexes_a_case_file_made_without_the_service(caplog) -> None:
    from casefiles.models import CaseFile

    owner = get_user_model().objects.create_user("demo-like")
    case_file = CaseFile.objects.create(owner=owner, title="Made directly")
    caplog.set_level(logging.WARNING, logger="casefiles.retrieval")
    assert retrieve_spans("zone", case_file.pk) == []
    assert STALE not in caplog.text  # no spans, no index row: nothing is out of date
    services.add_source(case_file=case_file, title="A", text="Zone.\n\nZone and traffic.")
    assert search_index.is_current(case_file.pk)
    _agrees_with_reference(case_file.pk)
