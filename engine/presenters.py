"""What the runs history shows, built from rows: the view calls these and renders.

The history lists the runs of every format (the graph debate's, inquiries,
stress tests, tournaments), newest first; filtered to one format, it names
that format and offers its own New button (``Format.plural_label``,
``about``, ``new_label``, ``new_url``). Unfiltered, it offers a new run of
the default format (the one a ``Debate`` row gets when none is named).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext as _

from engine.formats import Format, get_format
from engine.models import Debate

__all__ = ["DEFAULT_FORMAT", "Listing", "filter_runs", "listing_for", "query_without_page"]

# The format a run has when none is named (the model's default): the history's
# unfiltered New button starts one of these, and its rows carry no format badge.
DEFAULT_FORMAT: str = Debate._meta.get_field("format").default


@dataclass(frozen=True, slots=True)
class Listing:
    """What the history page says it lists, and the button that starts one."""

    heading: str
    about: str
    new_label: str | None
    new_url: str | None


def _new_button(fmt: Format) -> tuple[str | None, str | None]:
    return (str(fmt.new_label) if fmt.new_label else None, fmt.new_url() if fmt.new_url else None)


def listing_for(format_name: str) -> Listing:
    """The history filtered to one format names that format (and its own New button);
    unfiltered, it says it holds every format and offers a new run of the default one."""
    try:
        fmt = get_format(format_name or DEFAULT_FORMAT)
    except KeyError:
        fmt = get_format(DEFAULT_FORMAT)
    new_label, new_url = _new_button(fmt)
    if not format_name:
        return Listing(
            heading=_("All debates"),
            about=_(
                "Everything that runs on the debate engine, newest first: "
                "debates, inquiries, stress tests and tournaments. Filter by format to see one kind."
            ),
            new_label=new_label,
            new_url=new_url,
        )
    return Listing(
        heading=str(fmt.plural_label or fmt.label),
        about=str(fmt.about or ""),
        new_label=new_label,
        new_url=new_url,
    )


def filter_runs(*, runs: QuerySet[Debate], filters: dict[str, Any], user) -> QuerySet[Debate]:
    """Apply the history's filters: topic search, status, stop reason, format, only mine."""
    if query := (filters.get("q") or "").strip():
        for word in query.split():
            runs = runs.filter(topic__icontains=word)
    if status := filters.get("status"):
        runs = runs.filter(status=status)
    if stop_reason := filters.get("stop_reason"):
        runs = runs.filter(stop_reason=stop_reason)
    if run_format := filters.get("format"):
        runs = runs.filter(format=run_format)
    if filters.get("mine"):
        runs = runs.filter(creator=user)
    return runs


def query_without_page(query: QueryDict) -> str:
    """The current filters as a query string, for pagination links that keep them."""
    kept = query.copy()
    kept.pop("page", None)
    return kept.urlencode()
