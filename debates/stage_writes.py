"""The updates a graph debate's stages make, each statement written once.

A round's attacks stage links each proposed attack to the counter-argument made
from it, and its validation stage stores each attack's outcome. These run every
stage of every debate, and the ORM's compiling of them (a correlated subquery,
a ``pk IN`` filter) cost more than the database's answer
(docs/architecture.md, "What a stage costs the engine").
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connections, router

from config.sql_rows import quote_for, update_by_pks
from debates.models import Attack, DebateArgument
from debates.state import AttackView

__all__ = ["link_counters", "save_outcomes"]


@cache
def _link_sql(alias: str, vendor: str) -> str:
    quote = quote_for(alias)
    attack, argument = Attack._meta, DebateArgument._meta
    table, pk = quote(attack.db_table), quote(attack.pk.column)
    return (
        f"UPDATE {table} SET {quote(attack.get_field('from_argument').column)} = ("
        f"SELECT {quote(argument.pk.column)} FROM {quote(argument.db_table)} "
        f"WHERE {quote(argument.get_field('origin_attack').column)} = {table}.{pk} "
        f"ORDER BY {quote(argument.pk.column)} LIMIT 1) WHERE {pk} IN "
    )


def link_counters(attack_ids: Sequence[int]) -> None:
    """Each attack's ``from_argument``: the argument created from it (``origin_attack``).

    One statement whatever the number of attacks, as
    ``Attack.objects.filter(pk__in=ids).update(from_argument=Subquery(...))``.
    """
    if not attack_ids:
        return
    alias = router.db_for_write(Attack)
    connection = connections[alias]
    placeholders = "(" + ", ".join(["%s"] * len(attack_ids)) + ")"
    with connection.cursor() as cursor:
        cursor.execute(_link_sql(alias, connection.vendor) + placeholders, list(attack_ids))


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
        update_by_pks(Attack, ids, status=status, drop_reason=drop_reason)
