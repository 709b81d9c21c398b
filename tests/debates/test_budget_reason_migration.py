"""Migration 0008 gives the runs stopped by their budget the engine's own reason, BUDGET."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("debates", "0007_debate_stop_code")]
AFTER = [("debates", "0008_stopreason_budget")]


# Slow: migrating back and forth re-renders the models hundreds of times (30-200 s under load).
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_it_moves_budget_stops_out_of_critical_defect() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("debates", "Debate")
        rows = {
            (reason, code): old.objects.create(
                topic="t", status="stopped", stop_reason=reason, stop_code=code
            ).pk
            for reason, code in [
                ("CRITICAL_DEFECT", "budget"),
                ("CRITICAL_DEFECT", "no_opening_argument"),
                ("CRITICAL_DEFECT", ""),
                ("MAX_ROUNDS", "rounds_done"),
            ]
        }
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps.get_model("debates", "Debate")
        reasons = {key: new.objects.get(pk=pk).stop_reason for key, pk in rows.items()}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert reasons == {
        ("CRITICAL_DEFECT", "budget"): "BUDGET",
        ("CRITICAL_DEFECT", "no_opening_argument"): "CRITICAL_DEFECT",
        ("CRITICAL_DEFECT", ""): "CRITICAL_DEFECT",
        ("MAX_ROUNDS", "rounds_done"): "MAX_ROUNDS",
    }
