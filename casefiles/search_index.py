"""Keep each case file's word index (``SearchTerm``, ``SearchIndex``) in step with its spans.

``add_spans`` runs in the transaction that writes a batch of spans, so a reader
sees both or neither. A source's removal (any Django path: the admin, a case
file's or a user's deletion, a failed upload) rebuilds the index once the
deletion commits (``rebuild``, connected in ``CasefilesConfig.ready``). Writers
of one case file's index take its ``SearchIndex`` row's lock first, so an
append and a rebuild never interleave.

Whatever changes spans behind these functions' back (raw SQL, a bulk delete of
spans), a search notices (casefiles.retrieval compares the index's span count
and id sum with the spans there are) and counts from the spans instead;
``ensure_current`` then rebuilds, as ``add_source`` does after every source.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, transaction
from django.db.models import Count, F, Sum

from casefiles.models import CaseFile, SearchIndex, SearchTerm, Span
from casefiles.postings import postings_of

__all__ = ["add_spans", "ensure_current", "is_current", "rebuild", "rebuild_after_commit"]

# Many words per statement (one round trip and one plan for up to _ROWS of them: a
# statement per word made adding a 50-span source ~3x slower); a batch's words are
# distinct, as one statement needs them to be.
_ROWS = 500
_UPSERT = """
INSERT INTO casefiles_searchterm (case_file_id, term, df, postings) VALUES {values}
ON CONFLICT (case_file_id, term) DO UPDATE SET
    df = casefiles_searchterm.df + excluded.df,
    postings = casefiles_searchterm.postings || ',' || excluded.postings
"""


def _locked(case_file_id: int) -> SearchIndex:
    index, _ = SearchIndex.objects.select_for_update().get_or_create(case_file_id=case_file_id)
    return index


def _write(case_file_id: int, spans: Sequence[tuple[int, str]]) -> None:
    rows = [
        (case_file_id, term, len(codes), ",".join(map(str, codes)))
        for term, codes in postings_of(spans).items()
    ]
    with connection.cursor() as cursor:
        for first in range(0, len(rows), _ROWS):
            chunk = rows[first : first + _ROWS]
            values = ", ".join(["(%s, %s, %s, %s)"] * len(chunk))
            cursor.execute(_UPSERT.format(values=values), [v for row in chunk for v in row])


def add_spans(*, case_file_id: int, spans: Sequence[tuple[int, str]]) -> None:
    """Add new spans ((id, ``search_text``) pairs) to the index; call inside their transaction."""
    if not spans:
        return
    _locked(case_file_id)
    _write(case_file_id, spans)
    SearchIndex.objects.filter(pk=case_file_id).update(
        spans=F("spans") + len(spans), id_sum=F("id_sum") + sum(pk for pk, _ in spans)
    )


def _live(case_file_id: int) -> tuple[int, int]:
    got = Span.objects.filter(case_file_id=case_file_id).aggregate(n=Count("id"), ids=Sum("id"))
    return got["n"], got["ids"] or 0


def is_current(case_file_id: int) -> bool:
    """Whether the index was counted from exactly the case file's spans as they are."""
    index = SearchIndex.objects.filter(pk=case_file_id).values_list("spans", "id_sum").first()
    return index is not None and tuple(index) == _live(case_file_id)


@transaction.atomic
def rebuild(case_file_id: int) -> None:
    """Count the index again from the case file's spans (bounded by the per-case-file cap)."""
    if not CaseFile.objects.select_for_update().filter(pk=case_file_id).exists():
        return  # deleted meanwhile: its index went with it
    _locked(case_file_id)
    SearchTerm.objects.filter(case_file_id=case_file_id).delete()
    spans = list(
        Span.objects.filter(case_file_id=case_file_id)
        .order_by("id")
        .values_list("id", "search_text")
        .iterator(chunk_size=2000)
    )
    _write(case_file_id, spans)
    SearchIndex.objects.filter(pk=case_file_id).update(
        spans=len(spans), id_sum=sum(pk for pk, _ in spans)
    )


def ensure_current(case_file_id: int) -> None:
    """Rebuild the index if spans came or went behind its back."""
    if not is_current(case_file_id):
        rebuild(case_file_id)


def rebuild_after_commit(sender, instance, **kwargs) -> None:
    """``post_delete`` of a Source: its spans are gone; count the rest once that commits."""
    case_file_id = instance.case_file_id
    transaction.on_commit(lambda: rebuild(case_file_id), robust=True)
