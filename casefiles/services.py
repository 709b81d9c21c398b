"""Writes of case files: create one, add a source (split into spans), link origins.

A refused or failed source leaves the case file exactly as it was (no source
row, no span, nothing indexed). A source's spans are written in short
transactions of ``SPAN_WRITE_BATCH`` rows, so for the moment they
take a reader may see a source with only its first spans; one that fails
half-way is deleted. Caps per source and per case file (README,
"Configuration") keep one upload from taking minutes and gigabytes.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from casefiles.extraction import MAX_SOURCE_CHARS, ExtractionRefused, extract_text
from casefiles.models import CaseFile, SearchIndex, Source, SourceKind, Span, Visibility
from casefiles.search_index import add_spans, ensure_current
from casefiles.splitting import split_spans
from casefiles.terms import words
from untrusted import text_problem

__all__ = [
    "SourceRefused",
    "add_source",
    "add_uploaded_source",
    "create_case_file",
    "set_upstream_origin",
]

# Spans written per transaction (a few hundredths of a second of the database each),
# and a pause between two: SQLite's busy wait polls every few milliseconds, and a
# writer that waits (a sign-in) must find the database free between two batches.
SPAN_WRITE_BATCH = 250
SPAN_WRITE_PAUSE_SECONDS = 0.02


class SourceRefused(ValueError):
    """A source was not added; ``message`` is a plain sentence for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _refuse_while_an_inquiry_runs(case_file: CaseFile) -> None:
    """Sources and origins stay as they are while an inquiry on this case file runs.

    A worker that resumes an inquiry re-reads the case file; a source or an
    origin changed between two nodes would make the next node's input differ
    from the last node's output, a gap the audit chain reports, and would
    grade claims against two different sets of readings. (The reverse
    relation keeps this app free of an import of ``inquiries``.)
    """
    inquiries = getattr(case_file, "inquiries", None)
    if (
        inquiries is not None
        and inquiries.filter(debate__status__in=("queued", "running")).exists()
    ):
        raise SourceRefused(
            _(
                "An inquiry is running on this case file. Add or change its sources once "
                "it has finished, so that it judges one set of readings."
            )
        )


def create_case_file(
    *, owner, title: str, description: str = "", visibility: str = Visibility.PRIVATE
) -> CaseFile:
    case_file = CaseFile.objects.create(
        owner=owner, title=title.strip()[:200], description=description, visibility=visibility
    )
    SearchIndex.objects.create(case_file=case_file)
    return case_file


def _lock_for_new_sources(case_file: CaseFile) -> None:
    """Take the case file's row lock until the transaction ends: sources added at once to
    one case file are checked against its caps one after the other, each seeing the
    others' counts (without it, two could each find room for one and both be stored).
    SQLite has no row locks; its write transactions begin IMMEDIATE (settings), which
    serialises them all."""
    list(CaseFile.objects.select_for_update().filter(pk=case_file.pk).values_list("pk"))


def _span_caps(case_file: CaseFile, n_spans: int) -> None:
    """Refuse a source that would take its case file past a cap (settings, README)."""
    per_source = settings.CASEFILE_MAX_SPANS_PER_SOURCE
    if n_spans > per_source:
        raise SourceRefused(
            _(
                "This text would make more than %(max)s spans, the most one source may have. "
                "Split it into smaller sources, or join its short lines into paragraphs."
            )
            % {"max": f"{per_source:,}"}
        )
    max_sources = settings.CASEFILE_MAX_SOURCES
    if Source.objects.filter(case_file=case_file).count() >= max_sources:
        raise SourceRefused(
            _(
                "This case file already holds %(max)s sources, as many as one may. "
                "Start another case file for more readings."
            )
            % {"max": f"{max_sources:,}"}
        )
    per_case_file = settings.CASEFILE_MAX_SPANS_PER_CASE_FILE
    # The sources' own counts, not the spans written: a source whose later batches are
    # still to come holds its place in full (add_source writes in several transactions).
    held = Source.objects.filter(case_file=case_file).aggregate(n=Sum("n_spans"))["n"] or 0
    if held + n_spans > per_case_file:
        raise SourceRefused(
            _(
                "With this source the case file would hold %(n)s spans; one may hold at most "
                "%(max)s. Start another case file for more readings."
            )
            % {"n": f"{held + n_spans:,}", "max": f"{per_case_file:,}"}
        )


def add_source(
    *,
    case_file: CaseFile,
    title: str,
    text: str,
    kind: str = SourceKind.PASTED,
    author: str = "",
    published: str = "",
    citation: str = "",
    upstream_origin_id: int | None = None,
) -> Source:
    """Store a source and its spans (the index follows by trigger or expression index).

    Everything slow (splitting, indexing words) happens before the first write. The
    source row and the first batch of spans are one short transaction, each further
    batch another: on SQLite a write transaction holds the whole database, and a
    sign-in waiting behind one source of 5,000 spans must not wait for seconds.
    A failure between batches deletes the source again, so no half source stays.
    """
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    if problem := text_problem(text):
        raise SourceRefused(problem)
    if not text.strip():
        raise SourceRefused(_("The source has no text."))
    if len(text) > MAX_SOURCE_CHARS:
        raise SourceRefused(
            _("A source may hold at most %(n)s characters. Split it into smaller sources.")
            % {"n": f"{MAX_SOURCE_CHARS:,}"}
        )
    per_source = settings.CASEFILE_MAX_SPANS_PER_SOURCE
    cuts = split_spans(text, stop_after=per_source)
    if len(cuts) > per_source:  # refused before the rest is cut or a word indexed
        _span_caps(case_file, len(cuts))
    pieces = [_SpanPiece.of(text, cut.start, cut.end) for cut in cuts]
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    batch = SPAN_WRITE_BATCH
    try:
        with transaction.atomic():
            _lock_for_new_sources(case_file)
            _refuse_while_an_inquiry_runs(case_file)
            _span_caps(case_file, len(pieces))
            origin = None
            if upstream_origin_id is not None:
                origin = Source.objects.filter(pk=upstream_origin_id, case_file=case_file).first()
                if origin is None:
                    raise SourceRefused(_("The source it reports from must be in this case file."))
            if Source.objects.filter(case_file=case_file, sha256=digest).exists():
                raise SourceRefused(
                    _("This case file already holds a source with exactly this text.")
                )
            source = Source.objects.create(
                case_file=case_file,
                title=(title or "").strip()[:300] or _("Untitled source"),
                author=author.strip()[:300],
                published=published.strip()[:40],
                citation=citation.strip()[:1000],
                upstream_origin=origin,
                kind=kind,
                text=text,
                sha256=digest,
                n_spans=len(pieces),
            )
            _write_spans(case_file, source, pieces, 0, batch)
    except IntegrityError:  # the same text added twice at once
        raise SourceRefused(
            _("This case file already holds a source with exactly this text.")
        ) from None
    try:
        for first in range(batch, len(pieces), batch):
            time.sleep(SPAN_WRITE_PAUSE_SECONDS)
            with transaction.atomic():
                _write_spans(case_file, source, pieces, first, batch)
    except BaseException:
        Source.objects.filter(pk=source.pk).delete()  # its spans go with it
        raise
    CaseFile.objects.filter(pk=case_file.pk).update(updated_at=source.created_at)
    ensure_current(case_file.pk)  # spans that came or went behind the index's back
    return source


@dataclass(frozen=True, slots=True)
class _SpanPiece:
    start: int
    end: int
    text: str
    search_text: str
    n_words: int

    @classmethod
    def of(cls, text: str, start: int, end: int) -> _SpanPiece:
        piece = text[start:end]
        indexed = words(piece)
        return cls(start, end, piece, "".join(f" {word} " for word in indexed), len(indexed))


def _write_spans(
    case_file: CaseFile, source: Source, pieces: list[_SpanPiece], first: int, count: int
) -> None:
    """Write one batch of spans and add them to the case file's word index, in one transaction."""
    written = Span.objects.bulk_create(
        [
            Span(
                case_file=case_file,
                source=source,
                ordinal=number,
                start=piece.start,
                end=piece.end,
                text=piece.text,
                search_text=piece.search_text,
                n_words=piece.n_words,
            )
            for number, piece in enumerate(pieces[first : first + count], start=first + 1)
        ]
    )
    add_spans(case_file_id=case_file.pk, spans=[(span.pk, span.search_text) for span in written])


def add_uploaded_source(
    *,
    case_file: CaseFile,
    filename: str,
    data: bytes,
    title: str = "",
    author: str = "",
    published: str = "",
    citation: str = "",
    upstream_origin_id: int | None = None,
) -> Source:
    """Extract an uploaded file's text and add it; SourceRefused says why not."""
    limit = settings.CASEFILE_MAX_UPLOAD_BYTES
    if len(data) > limit:
        raise SourceRefused(
            _("This file is larger than %(mb)s MB. Upload a smaller file or paste the text.")
            % {"mb": limit // (1024 * 1024)}
        )
    try:
        extracted = extract_text(filename=filename, data=data)
    except ExtractionRefused as refused:
        raise SourceRefused(refused.message) from None
    return add_source(
        case_file=case_file,
        title=title or filename.rsplit("/", 1)[-1][:300],
        text=extracted.text,
        kind=extracted.kind,
        author=author,
        published=published,
        citation=citation,
        upstream_origin_id=upstream_origin_id,
    )


@transaction.atomic
def set_upstream_origin(*, source: Source, origin: Source | None) -> None:
    """Record that ``source`` reports from ``origin`` (same case file, no loop back to it)."""
    _refuse_while_an_inquiry_runs(source.case_file)
    if origin is not None:
        if origin.case_file_id != source.case_file_id or origin.pk == source.pk:
            raise SourceRefused(
                _("The source it reports from must be another source of this file.")
            )
        # Walk up from the origin: meeting ``source`` would make a reporting loop.
        seen, current = {origin.pk}, origin.upstream_origin_id
        while current is not None and current not in seen:
            if current == source.pk:
                raise SourceRefused(
                    _(
                        "That source already reports from this one; a source cannot be its own origin."
                    )
                )
            seen.add(current)
            current = (
                Source.objects.filter(pk=current)
                .values_list("upstream_origin_id", flat=True)
                .first()
            )
    Source.objects.filter(pk=source.pk).update(upstream_origin=origin)
    source.upstream_origin = origin
