"""A model's readable name from its id (pure): "claude-opus-5-5" reads "Claude Opus 5.5".

Anthropic's model ids name the family, the version and sometimes a snapshot
date: "claude-sonnet-4-5-20250929", or the older order "claude-3-5-haiku-20241022"
(docs.anthropic.com, "Models overview": each model's "Claude API ID"). The
readable name is the one those pages print beside the id ("Claude Sonnet 4.5",
"Claude Haiku 3.5"): the family, then the version; the date is left out (the
id, shown small to instructors, keeps it). An id that is not in that shape is
its own name.
"""

from __future__ import annotations

import re

__all__ = ["model_display_name"]

FAMILIES = ("opus", "sonnet", "haiku")
_DATE = re.compile(r"^\d{8}$")
_NUMBER = re.compile(r"^\d{1,2}$")


def model_display_name(model_id: str) -> str:
    """``model_id``'s readable name ("Claude Opus 5.5"), or ``model_id`` when unknown."""
    parts = model_id.strip().lower().split("-")
    if len(parts) < 3 or parts[0] != "claude":
        return model_id
    rest = parts[1:]
    if _DATE.match(rest[-1]):
        rest = rest[:-1]
    families = [part for part in rest if part in FAMILIES]
    numbers = [part for part in rest if part not in FAMILIES]
    if len(families) != 1 or not numbers or not all(_NUMBER.match(n) for n in numbers):
        return model_id
    # The version's numbers are together, before or after the family, never around it.
    at = rest.index(families[0])
    if at not in (0, len(rest) - 1):
        return model_id
    return f"Claude {families[0].capitalize()} {'.'.join(str(int(n)) for n in numbers)}"
