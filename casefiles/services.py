"""Writes of case files: create one, add a source (split into spans), link origins.

Every write is one transaction: a refused or failed source leaves the case
file exactly as it was (no source row, no span, nothing indexed).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from casefiles.extraction import MAX_SOURCE_CHARS, ExtractionRefused, extract_text
from casefiles.models import CaseFile, Source, SourceKind, Span, Visibility
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
    return CaseFile.objects.create(
        owner=owner, title=title.strip()[:200], description=description, visibility=visibility
    )


@transaction.atomic
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
    """Store a source and its spans (the index follows by trigger or expression index)."""
    _refuse_while_an_inquiry_runs(case_file)
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
    origin = None
    if upstream_origin_id is not None:
        origin = Source.objects.filter(pk=upstream_origin_id, case_file=case_file).first()
        if origin is None:
            raise SourceRefused(_("The source it reports from must be in this case file."))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if Source.objects.filter(case_file=case_file, sha256=digest).exists():
        raise SourceRefused(_("This case file already holds a source with exactly this text."))
    try:
        with transaction.atomic():
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
            )
    except IntegrityError:  # the same text added twice at once
        raise SourceRefused(
            _("This case file already holds a source with exactly this text.")
        ) from None
    Span.objects.bulk_create(
        [
            _span(case_file, source, number, text, cut.start, cut.end)
            for number, cut in enumerate(split_spans(text), start=1)
        ],
        batch_size=500,
    )
    CaseFile.objects.filter(pk=case_file.pk).update(updated_at=source.created_at)
    return source


def _span(case_file: CaseFile, source: Source, number: int, text: str, start: int, end: int):
    piece = text[start:end]
    indexed = words(piece)
    return Span(
        case_file=case_file,
        source=source,
        ordinal=number,
        start=start,
        end=end,
        text=piece,
        search_text="".join(f" {word} " for word in indexed),
        n_words=len(indexed),
    )


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
