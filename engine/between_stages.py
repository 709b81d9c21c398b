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

from config.sql_rows import values_where
from engine.models import Debate

__all__ = ["BETWEEN_STAGES", "read_between_stages"]

BETWEEN_STAGES = ("stop_requested_at", "cost_usd", "budget_usd", "max_rounds")


def read_between_stages(debate: Debate) -> None:
    """``debate.refresh_from_db(fields=BETWEEN_STAGES)``, in one statement written once."""
    rows = values_where(Debate, BETWEEN_STAGES, id=debate.pk)
    if not rows:
        raise Debate.DoesNotExist(f"debate {debate.pk} is gone")
    for name, value in zip(BETWEEN_STAGES, rows[0], strict=True):
        setattr(debate, Debate._meta.get_field(name).attname, value)
