"""What the engine reads back of a run's row between two stages.

Others may change the row while a stage runs: the owner asks to stop, the
call ledger adds to the running cost, an instructor changes the budget. The
engine reads those fields again after every stage, before anything of the next
is paid for. Not the whole row: its JSON (a graph debate's claims, an output)
would be decoded every stage, and each stage works on the row its own
transaction locks.
"""

from __future__ import annotations

from engine.models import Debate

__all__ = ["BETWEEN_STAGES", "read_between_stages"]

BETWEEN_STAGES = ("stop_requested_at", "cost_usd", "budget_usd", "max_rounds")


def read_between_stages(debate: Debate) -> None:
    """Read `BETWEEN_STAGES` of ``debate`` again (one query); the rest is left as it was."""
    debate.refresh_from_db(fields=BETWEEN_STAGES)
