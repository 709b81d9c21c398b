"""Hostile PDFs: read in a process of their own, under limits, refused in one plain sentence.

Each PDF is built here, small and fast: a page tree hundreds of levels deep, one
that points back to itself, one that doubles at every level (2**40 pages in 2 KB),
a deflate bomb, a stream of millions of tokens, pages that each take seconds, and
50,000 empty pages. None may raise anything but ExtractionRefused, take the web
process's memory, or keep the request for long.
"""

from __future__ import annotations

import resource
import time

import pytest

from casefiles import extraction
from casefiles.extraction import ExtractionRefused, extract_text
from tests.casefiles import pdfs

UNREADABLE = "This PDF could not be read. Upload another copy, or paste the text."


@pytest.mark.parametrize("name", sorted(pdfs.HOSTILE_PDFS))
def test_it_refuses_a_hostile_pdf_quickly_and_plainly(name) -> None:
    data = pdfs.HOSTILE_PDFS[name]()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with pytest.raises(ExtractionRefused) as refused:
        extract_text(filename="hostile.pdf", data=data)
    # The clock is the hard bound (plus the reader's start on a loaded machine).
    assert time.perf_counter() - started < extraction.PDF_TIMEOUT_SECONDS + 5
    assert refused.value.message in {UNREADABLE, extraction._refusal("too_many_pages").message}
    # The web process never parsed it: its peak memory did not move by tens of MB.
    grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kb < 30 * 1024


def test_it_refuses_a_page_tree_that_doubles_without_building_its_pages() -> None:
    # Refused for its page count, which the reader reads before it builds a page: a
    # tree that had been built would end on the clock, with the "could not be read" refusal.
    with pytest.raises(ExtractionRefused, match="more than 300 pages"):
        extract_text(filename="tree.pdf", data=pdfs.doubling_page_tree_pdf())


@pytest.mark.parametrize(
    ("limit", "value", "log"),
    [
        ("PDF_CPU_SECONDS", 1, "PDF reader ended with"),  # killed by RLIMIT_CPU
        ("PDF_TIMEOUT_SECONDS", 0.5, "PDF reader stopped after"),  # killed by the clock
    ],
)
def test_it_stops_a_pdf_that_uses_up_its_cpu_seconds_or_its_time(
    monkeypatch, caplog, limit, value, log
) -> None:
    # Every page is within pypdf's own limits; together they take minutes of CPU.
    monkeypatch.setattr(extraction, "PDF_TIMEOUT_SECONDS", 60)
    monkeypatch.setattr(extraction, limit, value)
    caplog.set_level("INFO", logger="casefiles.extraction")
    started = time.perf_counter()
    with pytest.raises(ExtractionRefused) as refused:
        extract_text(filename="slow.pdf", data=pdfs.slow_pages_pdf(operators=400_000))
    assert refused.value.message == UNREADABLE
    assert log in caplog.text
    assert time.perf_counter() - started < 30


def test_it_stops_a_pdf_that_asks_for_more_memory_than_allowed(monkeypatch) -> None:
    monkeypatch.setattr(extraction, "PDF_MEMORY_MB", 70)
    with pytest.raises(ExtractionRefused) as refused:
        extract_text(filename="big.pdf", data=pdfs.deflate_bomb_pdf(megabytes=18))
    assert refused.value.message == UNREADABLE


def test_it_asks_to_come_back_when_every_reader_is_busy(monkeypatch) -> None:
    monkeypatch.setattr(extraction, "PDF_QUEUE_SECONDS", 0)
    held = [extraction._READERS.acquire(timeout=1) for _ in range(extraction.PDF_READERS)]
    try:
        with pytest.raises(ExtractionRefused, match="Try again in a minute"):
            extract_text(filename="a.pdf", data=pdfs.text_pdf(["Some words."]))
    finally:
        for _ in held:
            extraction._READERS.release()
    assert extract_text(filename="a.pdf", data=pdfs.text_pdf(["Some words."])).text


def test_it_reads_a_long_pdf_up_to_its_last_allowed_page() -> None:
    text = extract_text(filename="long.pdf", data=pdfs.long_text_pdf(300)).text
    assert text.startswith("Page 1.") and text.endswith("Page 300.")
    with pytest.raises(ExtractionRefused, match="more than 300 pages"):
        extract_text(filename="longer.pdf", data=pdfs.long_text_pdf(301))
