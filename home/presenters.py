"""What a student's own page shows of their runs on the debate engine, named by format."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.formats import get_format
from engine.models import Debate

__all__ = ["FormatGroup", "debates_by_format"]


@dataclass(frozen=True, slots=True)
class FormatGroup:
    name: str
    heading: str
    debates: list[Debate]


def debates_by_format(*, user: Any, per_format: int) -> list[FormatGroup]:
    """The user's own debates, inquiries, stress tests and tournaments, newest first,
    grouped under each format's plural name (a stress test is not "a debate" to a student)."""
    groups: dict[str, list[Debate]] = {}
    for debate in Debate.objects.filter(creator=user).order_by("-created_at", "-id")[:100]:
        rows = groups.setdefault(debate.format, [])
        if len(rows) < per_format:
            rows.append(debate)
    result = []
    for name, debates in groups.items():
        try:
            fmt = get_format(name)
            heading = str(fmt.plural_label or fmt.label)
        except KeyError:
            heading = name
        result.append(FormatGroup(name=name, heading=heading, debates=debates))
    return result
