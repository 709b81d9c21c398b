"""Case files: the readings an inquiry argues from, split into citable spans.

A ``Source`` keeps its provenance (title, author or publisher, date, URL or
citation) and its *origin*: ``upstream_origin`` is the earlier source it
reports from, so two articles quoting one study are known to share an origin
(argumentation/sanad.py computes independence from it). Its text is split
into ``Span`` rows with exact offsets (casefiles/splitting.py); spans are what
evidence chains point at, and what ``casefiles.retrieval.retrieve_spans``
finds (ranked by BM25 over the case file's own spans, on either database).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

__all__ = [
    "CaseFile",
    "SearchIndex",
    "SearchTerm",
    "Source",
    "SourceKind",
    "Span",
    "Visibility",
    "parse_span_key",
    "span_url",
]


_SPAN_KEY = re.compile(r"S([0-9]{1,9})\.([0-9]{1,9})")


def parse_span_key(key: str) -> tuple[int, int] | None:
    """``S3.12`` → (source id 3, ordinal 12); None for anything else (a model may write junk).

    ASCII digits only, at most nine: "S3.²" or a 30-digit id must not reach a query
    (int() refuses the first; PostgreSQL's integer overflows on the second).
    """
    match = _SPAN_KEY.fullmatch(key)
    return (int(match[1]), int(match[2])) if match else None


class Visibility(models.TextChoices):
    PRIVATE = "private", _("only me")
    PUBLIC = "public", _("everyone signed in")


class CaseFileQuerySet(models.QuerySet):
    def for_user(self, user) -> CaseFileQuerySet:
        """Case files a user may read: their own and the public ones."""
        if not getattr(user, "is_authenticated", False):
            return self.none()
        return self.filter(models.Q(owner=user) | models.Q(visibility=Visibility.PUBLIC))


class CaseFile(models.Model):
    title = models.CharField(_("title"), max_length=200)
    description = models.TextField(_("description"), blank=True, default="", max_length=2000)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="case_files",
        verbose_name=_("owner"),
    )
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    is_demo = models.BooleanField(_("demo"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    objects = CaseFileQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("case file")
        verbose_name_plural = _("case files")

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("casefiles:detail", args=[self.pk])


class SourceKind(models.TextChoices):
    PASTED = "pasted", _("pasted text")
    TXT = "txt", _("text file")
    MD = "md", _("Markdown file")
    PDF = "pdf", _("PDF")


class Source(models.Model):
    case_file = models.ForeignKey(
        CaseFile, on_delete=models.CASCADE, related_name="sources", verbose_name=_("case file")
    )
    title = models.CharField(_("title"), max_length=300)
    author = models.CharField(_("author or publisher"), max_length=300, blank=True, default="")
    published = models.CharField(
        _("date"), max_length=40, blank=True, default="", help_text=_("As the source gives it.")
    )
    citation = models.CharField(_("URL or citation"), max_length=1000, blank=True, default="")
    # The earlier source this one reports from, in the same case file.
    upstream_origin = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("reports from"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=SourceKind.choices)
    text = models.TextField(_("text"))
    sha256 = models.CharField(_("SHA-256"), max_length=64, editable=False)
    # Its spans, counted when it is added, before they are written (in batches): the
    # case file's caps add these up, so a source still being written counts in full.
    n_spans = models.PositiveIntegerField(_("spans"), default=0, editable=False)
    created_at = models.DateTimeField(_("added at"), auto_now_add=True)

    class Meta:
        ordering = ["case_file", "id"]
        verbose_name = _("source")
        verbose_name_plural = _("sources")
        constraints = [
            models.UniqueConstraint(
                fields=["case_file", "sha256"], name="casefile_source_text_once"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def key(self) -> str:
        """The id agents and chains use for this source."""
        return f"SRC-{self.pk}"

    def clean(self) -> None:
        """The origin is another source of the same case file, with no loop back to this one."""
        super().clean()
        origin = self.upstream_origin
        if origin is None:
            return
        if origin.case_file_id != self.case_file_id or origin.pk == self.pk:
            raise ValidationError(
                {"upstream_origin": _("It must be another source of the same case file.")}
            )
        if self.pk is not None and origin.root_origin_id() != origin.pk:
            seen, current = {origin.pk}, origin.upstream_origin
            while current is not None and current.pk not in seen:
                if current.pk == self.pk:
                    raise ValidationError(
                        {"upstream_origin": _("That source already reports from this one.")}
                    )
                seen.add(current.pk)
                current = current.upstream_origin

    def root_origin_id(self) -> int:
        """The first source of the reporting line this source stands in (cycles cut)."""
        seen = {self.pk}
        current = self
        while current.upstream_origin_id is not None and current.upstream_origin_id not in seen:
            seen.add(current.upstream_origin_id)
            current = current.upstream_origin
        return current.pk


class Span(models.Model):
    # Denormalised from the source so a search reads one table.
    case_file = models.ForeignKey(
        CaseFile, on_delete=models.CASCADE, related_name="spans", verbose_name=_("case file")
    )
    source = models.ForeignKey(
        Source, on_delete=models.CASCADE, related_name="spans", verbose_name=_("source")
    )
    ordinal = models.PositiveIntegerField(_("number"))
    start = models.PositiveIntegerField(_("start"))
    end = models.PositiveIntegerField(_("end"))
    text = models.TextField(_("text"))
    # The span's words as the index sees them (casefiles/terms.py), and how many.
    search_text = models.TextField(_("search text"), editable=False, default="")
    n_words = models.PositiveIntegerField(_("number of words"), editable=False, default=0)

    class Meta:
        verbose_name = _("span")
        verbose_name_plural = _("spans")
        # By the column, not the relation: ordering by "source" would follow Source's
        # and CaseFile's orderings, a join and a sort of every span on each list.
        ordering = ["source_id", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["source", "ordinal"], name="casefile_span_ordinal"),
        ]
        indexes = [
            # A search counts its case file's spans, their words and ids (N, the mean
            # length, the index's check) from this index alone, never the rows.
            models.Index(fields=["case_file", "n_words", "id"], name="casefile_span_lengths"),
        ]

    def __str__(self) -> str:
        return self.key

    def get_absolute_url(self) -> str:
        return span_url(self.case_file_id, self.key)

    @property
    def key(self) -> str:
        """A stable id: the source's number and the span's number in it (``S3.12``)."""
        return f"S{self.source_id}.{self.ordinal}"


class SearchTerm(models.Model):
    """One word of a case file's index: how many of its spans hold it, and which (casefiles.postings)."""

    # The unique constraint's index (case_file, term) serves lookups by case file too.
    case_file = models.ForeignKey(
        CaseFile,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        verbose_name=_("case file"),
    )
    term = models.CharField(_("word"), max_length=60)
    df = models.PositiveIntegerField(_("spans holding it"))
    # Comma-separated codes, one per span (casefiles.postings.pack).
    postings = models.TextField(_("postings"))

    class Meta:
        verbose_name = _("search word")
        verbose_name_plural = _("search words")
        constraints = [
            models.UniqueConstraint(fields=["case_file", "term"], name="casefile_search_term"),
        ]

    def __str__(self) -> str:
        return self.term


class SearchIndex(models.Model):
    """Which spans a case file's ``SearchTerm`` rows were counted from: how many, and their ids' sum.

    A search compares both with the spans there are (one read of an index); they
    differ only if spans came or went by a path that did not update the index,
    and then the search counts from the spans themselves (casefiles.retrieval).
    New span ids only grow, so equal count and sum mean the same spans.
    """

    case_file = models.OneToOneField(
        CaseFile,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("case file"),
    )
    spans = models.PositiveIntegerField(_("spans"), default=0)
    id_sum = models.BigIntegerField(_("sum of span ids"), default=0)

    class Meta:
        verbose_name = _("search index")
        verbose_name_plural = _("search indexes")

    def __str__(self) -> str:
        return f"{self.case_file_id}: {self.spans}"


def span_url(case_file_id: int, key: str) -> str:
    """The address of a span on its source's page (which shows it whatever page it is on)."""
    pair = parse_span_key(key)
    if pair is None:
        raise ValueError(f"not a span key: {key!r}")
    source_id, ordinal = pair
    page = reverse("casefiles:source", args=[case_file_id, source_id])
    return f"{page}?span={ordinal}#{key}"
