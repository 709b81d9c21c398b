"""`|cite_links`: an agent's text, escaped, with its `[C-n]` / `[K-n]` citations as links."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from inquiries.gates import CITATION_RE

register = template.Library()

# One registered id inside a bracketed citation: registered ids are C-/K- and digits only.
_ID = re.compile(r"(?<![\w-])[CK]-[0-9]{1,9}(?![\w-])")


@register.filter
def cite_links(text: object, hrefs: dict[str, str] | None) -> SafeString:
    """Escape ``text`` first, then link each cited id that ``hrefs`` knows.

    The matching runs on the escaped text: escaping leaves brackets, commas,
    semicolons, letters, digits and hyphens as they are, so a citation reads the
    same, and nothing the model wrote can open a tag. An id the page cannot
    link (not registered, or a rejected output's) stays plain text.
    """
    escaped = escape("" if text is None else str(text))
    if not hrefs:
        return escaped

    def link_ids(citation: re.Match[str]) -> str:
        return _ID.sub(
            lambda m: (
                format_html('<a href="{}">{}</a>', hrefs[m[0]], m[0]) if m[0] in hrefs else m[0]
            ),
            citation[0],
        )

    return mark_safe(CITATION_RE.sub(link_ids, escaped))  # noqa: S308 - built from escaped text


def _plain_terms() -> dict[str, str]:
    """The gates' rules and the chains' defects in plain words; the code is the formal term."""
    return {
        "NO_FREE_FACTS": _("a number, date or name with no registered claim behind it"),
        "NO_RECORD": _("no self-check was given with the answer"),
        "OVERCONFIDENT": _("more sure of itself than its evidence allows"),
        "UNFALSIFIABLE": _("says nothing that could show it wrong"),
        "UNSUPPORTED_FACTS": _("facts that no cited claim supports"),
        "UNREGISTERED_CITATION": _("cites a claim that was never registered"),
        "BROKEN_CHAIN": _("the chain of sources is broken"),
        "MISSING_LINK": _("a link of the chain of sources is missing"),
        "UNKNOWN_SOURCE": _("a source that is not in the case file"),
    }


@register.filter
def plain_term(code: object) -> str:
    """A rule's or a defect's code in plain words (the code itself when it is unknown)."""
    return _plain_terms().get(str(code or ""), str(code or ""))
