"""What the engine reads back of a run's row between two stages.

Others may change the row while a stage runs: the owner asks to stop, the
call ledger adds to the running cost, an instructor changes the budget. The
engine reads those fields again after every stage, before anything of the next
is paid for. Not the whole row: its JSON (a graph debate's claims, an output)
would be decoded every stage, and each stage works on the row its own
transaction locks. The statement is written once (``config.sql_rows``): it
runs after every stage of every run, and the ORM's compiling of it cost more
than the database's answer (docs/architecture.md, "What a stage costs the engine").
"""

from __future__ import annotations

from functools import cache

from django.db import connections, router

from config.sql_rows import convert, quote_for
from engine.models import Debate

__all__ = ["BETWEEN_STAGES", "read_between_stages"]

BETWEEN_STAGES = ("stop_requested_at", "cost_usd", "budget_usd", "max_rounds")


@cache
def _sql(alias: str, vendor: str) -> str:
    quote = quote_for(alias)
    meta = Debate._meta
    names = ", ".join(quote(meta.get_field(name).column) for name in BETWEEN_STAGES)
    return f"SELECT {names} FROM {quote(meta.db_table)} WHERE {quote(meta.pk.column)} = %s"


def read_between_stages(debate: Debate) -> None:
    """``debate.refresh_from_db(fields=BETWEEN_STAGES)``, in one statement written once."""
    alias = router.db_for_read(Debate)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(_sql(alias, connection.vendor), [debate.pk])
        row = cursor.fetchone()
    if row is None:
        raise Debate.DoesNotExist(f"debate {debate.pk} is gone")
    fields = [Debate._meta.get_field(name) for name in BETWEEN_STAGES]
    for field, value in zip(fields, convert(Debate, alias, fields, row), strict=True):
        setattr(debate, field.attname, value)
