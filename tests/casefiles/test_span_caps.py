"""Caps on spans and sources: a million one-word lines is refused at once, in plain words.

A source's spans are written in short transactions, so that a sign-in (a write)
never waits behind one source for seconds, and a failure half-way leaves nothing.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from casefiles import services
from casefiles.models import Source, Span
from casefiles.splitting import split_spans


@pytest.fixture
def case_file(db):
    owner = get_user_model().objects.create_user("ada")
    return services.create_case_file(owner=owner, title="Readings")


def _paragraphs(n: int, word: str = "word") -> str:
    return "\n\n".join(f"{word} {i}." for i in range(n))


@pytest.mark.django_db
def test_it_refuses_a_span_explosion_at_once_and_writes_nothing(case_file) -> None:
    text = "a\n\n" * 333_333  # 999,999 characters, 333,333 one-letter paragraphs
    started = time.perf_counter()
    with pytest.raises(services.SourceRefused) as refused:
        services.add_uploaded_source(case_file=case_file, filename="lines.md", data=text.encode())
    assert time.perf_counter() - started < 15  # it took 40 s and 400 MB before the cap
    assert "more than 5,000 spans" in refused.value.message
    assert not Source.objects.exists() and not Span.objects.exists()


@pytest.mark.django_db
def test_it_keeps_a_source_at_its_span_cap(case_file, settings) -> None:
    settings.CASEFILE_MAX_SPANS_PER_SOURCE = 40
    source = services.add_source(case_file=case_file, title="Forty", text=_paragraphs(40))
    assert source.spans.count() == 40
    with pytest.raises(services.SourceRefused, match="more than 40 spans"):
        services.add_source(case_file=case_file, title="Too many", text=_paragraphs(41, "x"))
    assert Source.objects.count() == 1


@pytest.mark.django_db
def test_it_caps_the_spans_and_the_sources_of_a_case_file(case_file, settings) -> None:
    settings.CASEFILE_MAX_SPANS_PER_CASE_FILE = 50
    services.add_source(case_file=case_file, title="One", text=_paragraphs(30, "one"))
    with pytest.raises(services.SourceRefused) as refused:
        services.add_source(case_file=case_file, title="Two", text=_paragraphs(30, "two"))
    assert "would hold 60 spans" in refused.value.message
    assert "at most 50" in refused.value.message
    settings.CASEFILE_MAX_SOURCES = 2
    services.add_source(case_file=case_file, title="Two", text=_paragraphs(20, "two"))
    with pytest.raises(services.SourceRefused, match="already holds 2 sources"):
        services.add_source(case_file=case_file, title="Three", text="Three.")
    assert Span.objects.filter(case_file=case_file).count() == 50


@pytest.mark.django_db
def test_it_writes_spans_in_batches_with_exact_ordinals(case_file, monkeypatch) -> None:
    monkeypatch.setattr(services, "SPAN_WRITE_BATCH", 7)
    text = _paragraphs(20)
    source = services.add_source(case_file=case_file, title="Batches", text=text)
    spans = list(source.spans.order_by("ordinal"))
    assert [span.ordinal for span in spans] == list(range(1, 21))
    assert all(text[span.start : span.end] == span.text for span in spans)


@pytest.mark.django_db
def test_it_removes_a_source_whose_later_batch_fails(case_file, monkeypatch) -> None:
    monkeypatch.setattr(services, "SPAN_WRITE_BATCH", 5)
    write = services._write_spans
    calls = []

    def fail_on_the_third_batch(*args):
        calls.append(args)
        if len(calls) == 3:
            raise RuntimeError("the disk is full")
        write(*args)

    monkeypatch.setattr(services, "_write_spans", fail_on_the_third_batch)
    with pytest.raises(RuntimeError):
        services.add_source(case_file=case_file, title="Half", text=_paragraphs(20))
    assert not Source.objects.exists() and not Span.objects.exists()


def test_split_spans_stops_counting_past_a_limit() -> None:
    text = _paragraphs(100)
    assert split_spans(text, stop_after=10) == split_spans(text)[:11]
    assert split_spans(text, stop_after=1000) == split_spans(text)


@pytest.mark.django_db(transaction=True)
def test_it_never_holds_the_database_while_a_sign_in_waits(case_file) -> None:
    """A writer (what a sign-in writes) gets in between two batches of a 5,000-span source."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL locks rows, not the whole database")
    user = get_user_model().objects.create_user("bea")
    text = _paragraphs(5000)
    done = threading.Event()

    def add() -> None:
        try:
            services.add_source(case_file=case_file, title="Long", text=text)
        finally:
            connection.close()
            done.set()

    adder = threading.Thread(target=add)
    adder.start()
    seen_mid_write = set()
    while not done.is_set():
        get_user_model().objects.filter(pk=user.pk).update(last_login=timezone.now())
        # Signed in while the source was half written: the write did not wait for all of it.
        written = Span.objects.filter(case_file=case_file).count()
        if 0 < written < 5000:
            seen_mid_write.add(written)
        time.sleep(0.005)
    adder.join()
    assert Span.objects.filter(case_file=case_file).count() == 5000
    assert len(seen_mid_write) >= 3, seen_mid_write


@pytest.mark.django_db
def test_it_refuses_in_spanish_on_a_spanish_page(case_file, settings) -> None:
    from django.utils import translation

    settings.CASEFILE_MAX_SPANS_PER_SOURCE = 3
    with translation.override("es"), pytest.raises(services.SourceRefused) as refused:
        services.add_source(case_file=case_file, title="Muchos", text=_paragraphs(4))
    assert "más de 3 fragmentos" in refused.value.message


@pytest.mark.django_db
def test_it_counts_a_source_still_being_written_in_full(case_file, settings, monkeypatch) -> None:
    # A source is written in batches, each its own transaction: another source added
    # between two of them must see the first one's spans all counted, not the batches so far.
    settings.CASEFILE_MAX_SPANS_PER_CASE_FILE = 30
    monkeypatch.setattr(services, "SPAN_WRITE_BATCH", 5)
    outcomes = []

    def add_another_between_batches(seconds: float) -> None:
        if not outcomes:
            try:
                services.add_source(case_file=case_file, title="Second", text=_paragraphs(10, "b"))
                outcomes.append("stored")
            except services.SourceRefused as refused:
                outcomes.append(refused.message)

    monkeypatch.setattr(services.time, "sleep", add_another_between_batches)
    services.add_source(case_file=case_file, title="First", text=_paragraphs(25, "a"))

    assert len(outcomes) == 1 and "would hold 35 spans" in outcomes[0]
    assert list(Source.objects.values_list("title", "n_spans")) == [("First", 25)]
    assert Span.objects.filter(case_file=case_file).count() == 25


@pytest.mark.django_db(transaction=True)
def test_it_lets_only_the_sources_that_fit_in_when_they_come_at_once(case_file, settings) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's write transactions begin IMMEDIATE: they never run at once")
    settings.CASEFILE_MAX_SPANS_PER_CASE_FILE = 30
    both_in = threading.Barrier(2, timeout=10)
    outcomes: list[str] = []

    def add(word: str) -> None:
        try:
            services.add_source(case_file=case_file, title=word, text=_paragraphs(20, word))
            outcomes.append("stored")
        except services.SourceRefused:
            outcomes.append("refused")
        finally:
            connection.close()

    original_lock = services._lock_for_new_sources

    def meet_then_lock(case_file) -> None:
        both_in.wait()
        original_lock(case_file)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services, "_lock_for_new_sources", meet_then_lock)
        adders = [threading.Thread(target=add, args=(word,)) for word in ("one", "two")]
        for adder in adders:
            adder.start()
        for adder in adders:
            adder.join()

    assert sorted(outcomes) == ["refused", "stored"]
    assert Span.objects.filter(case_file=case_file).count() == 20
