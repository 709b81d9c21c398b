"""The updates a graph debate's stages make, each a few statements whatever the rows.

A round's attacks stage links each proposed attack to the counter-argument made
from it, and its validation stage stores each attack's outcome. These run every
stage of every debate: one ``UPDATE`` for the links, one per distinct outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import OuterRef, Subquery

from debates.models import Attack, DebateArgument
from debates.state import AttackView

__all__ = ["link_counters", "save_outcomes"]


def link_counters(attack_ids: Sequence[int]) -> None:
    """Each attack's ``from_argument``: the argument created from it (``origin_attack``).

    One statement whatever the number of attacks.
    """
    if not attack_ids:
        return
    made_from = DebateArgument.objects.filter(origin_attack=OuterRef("pk")).order_by("pk")
    Attack.objects.filter(pk__in=attack_ids).update(
        from_argument=Subquery(made_from.values("pk")[:1])
    )


def save_outcomes(attacks: Sequence[AttackView]) -> None:
    """Store each attack's status and drop reason: one UPDATE per distinct outcome.

    A round's attacks end in a handful of outcomes (valid, invalid, duplicate,
    dropped for a reason), so this is a few small statements where bulk_update
    built a CASE WHEN per attack and field.
    """
    by_outcome: dict[tuple[str, str], list[int]] = {}
    for attack in attacks:
        by_outcome.setdefault((attack.status, attack.drop_reason), []).append(attack.id)
    for (status, drop_reason), ids in by_outcome.items():
        Attack.objects.filter(pk__in=ids).update(status=status, drop_reason=drop_reason)
