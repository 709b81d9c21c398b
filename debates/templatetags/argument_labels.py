"""A node's label in plain words: what stands, what is defeated, what is undecided.

The semantics label nodes IN, OUT and UNDEC; a student reads "stands",
"defeated" and "undecided", and the formal label stays in the badge's title
and class for whoever wants it.
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


def _words() -> dict[str, str]:
    return {"IN": _("stands"), "OUT": _("defeated"), "UNDEC": _("undecided")}


@register.filter
def plain_label(label: str) -> str:
    """IN -> "stands" (in the page's language); an unknown label is shown as it is."""
    return _words().get(str(label or ""), str(label or ""))
