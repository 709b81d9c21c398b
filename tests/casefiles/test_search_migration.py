"""Migrations of the case files: 0006 drops the site-wide word indexes and keeps every span
(reversing rebuilds them); 0008 indexes the spans already there per case file; 0009
counts each source's spans on the source.

The rows are written as the old schemas held them (the models' own tables, no
service), since today's services also write tables those schemas lack.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from casefiles import search_index, services
from casefiles.models import CaseFile, SearchIndex, SearchTerm, Source, Span
from casefiles.postings import unpack
from casefiles.retrieval import retrieve_spans
from casefiles.splitting import split_spans
from casefiles.terms import words

BEFORE = [("casefiles", "0005_span_order_by_column")]
AFTER = [("casefiles", "0006_search_per_case_file")]
BEFORE_INDEX = [("casefiles", "0007_field_labels")]
BEFORE_COUNTS = [("casefiles", "0008_search_index")]


def _case_file_as_of_old(title: str, text: str, state: list) -> Any:
    """A case file with one source and its spans, written row by row (no word index) with
    the models as the schema at `state` had them."""
    models = MigrationExecutor(connection).loader.project_state(state).apps
    owner = get_user_model().objects.create_user(title.lower())
    case_file = models.get_model("casefiles", "CaseFile").objects.create(
        owner_id=owner.pk, title=title
    )
    source = models.get_model("casefiles", "Source").objects.create(
        case_file_id=case_file.pk, title=title, kind="pasted", text=text, sha256=title
    )
    for number, cut in enumerate(split_spans(text), start=1):
        piece = words(text[cut.start : cut.end])
        models.get_model("casefiles", "Span").objects.create(
            case_file_id=case_file.pk,
            source_id=source.pk,
            ordinal=number,
            start=cut.start,
            end=cut.end,
            text=text[cut.start : cut.end],
            search_text="".join(f" {word} " for word in piece),
            n_words=len(piece),
        )
    return case_file


def _site_wide_index_rows() -> int | None:
    """How many spans the old site-wide index holds (None: it does not exist)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT to_regclass('casefiles_span_vector') IS NOT NULL")
            return Span.objects.count() if cursor.fetchone()[0] else None
        cursor.execute("SELECT 1 FROM sqlite_master WHERE name = 'casefiles_span_fts'")
        if cursor.fetchone() is None:
            return None
        cursor.execute(
            "SELECT COUNT(*) FROM casefiles_span_fts WHERE casefiles_span_fts MATCH 'zone'"
        )
        return cursor.fetchone()[0]


def _migrate(target) -> None:
    MigrationExecutor(connection).migrate(target)


@pytest.mark.django_db(transaction=True)
def test_it_keeps_every_span_and_rebuilds_the_old_index_when_reversed() -> None:
    _migrate(BEFORE)
    try:
        _case_file_as_of_old("Zones", "The zone grew.\n\nTraffic fell.\n\nZone zone.", BEFORE)
        spans = list(Span.objects.order_by("id").values_list("id", "search_text", "n_words"))
        assert _site_wide_index_rows() == (3 if connection.vendor == "postgresql" else 2)

        _migrate(AFTER)
        assert (
            list(Span.objects.order_by("id").values_list("id", "search_text", "n_words")) == spans
        )
        assert _site_wide_index_rows() is None

        _migrate(BEFORE)
        assert Span.objects.count() == 3
        assert _site_wide_index_rows() == (3 if connection.vendor == "postgresql" else 2)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_it_indexes_the_spans_already_there_per_case_file() -> None:
    _migrate(BEFORE_INDEX)
    try:
        zones = _case_file_as_of_old(
            "Zones", "The zone grew.\n\nTraffic fell.\n\nZone zone.", BEFORE_INDEX
        )
        other = _case_file_as_of_old("Other", "Zone " * 30, BEFORE_INDEX)
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

        assert search_index.is_current(zones.pk) and search_index.is_current(other.pk)
        zone = SearchTerm.objects.get(case_file_id=zones.pk, term="zone")
        counted = sorted(unpack(int(code))[1:] for code in zone.postings.split(","))
        assert zone.df == 2 and counted == [(2, 2), (3, 1)]  # (length, count) per span
        assert SearchIndex.objects.get(pk=zones.pk).spans == 3
        assert [hit.text for hit in retrieve_spans("zone", zones.pk)] == [
            "Zone zone.",
            "The zone grew.",
        ]
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_it_counts_the_spans_of_the_sources_already_there(settings) -> None:
    _migrate(BEFORE_COUNTS)
    try:
        zones = _case_file_as_of_old(
            "Zones", "The zone grew.\n\nTraffic fell.\n\nZone zone.", BEFORE_COUNTS
        )
        _case_file_as_of_old("Other", "\n\n".join(f"Line {n}." for n in range(30)), BEFORE_COUNTS)
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())

        assert sorted(Source.objects.values_list("title", "n_spans")) == [
            ("Other", 30),
            ("Zones", 3),
        ]
        # The caps count them: room for two more spans in a case file of five, not three.
        settings.CASEFILE_MAX_SPANS_PER_CASE_FILE = 5
        case_file = CaseFile.objects.get(pk=zones.pk)
        with pytest.raises(services.SourceRefused, match="would hold 6 spans"):
            services.add_source(case_file=case_file, title="Three", text="A.\n\nB.\n\nC.")
        services.add_source(case_file=case_file, title="Two", text="A.\n\nB.")
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
