"""Migration 0007 gives the rows stopped before stop codes their code and parameters."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation

from debates.presenters import stop_detail

BEFORE = [("debates", "0006_drop_reason_over_limit")]
AFTER = [("debates", "0007_debate_stop_code")]

OLD_SENTENCES = {
    "Round 2 of 2 is done.": ("rounds_done", {"round": 2, "max": 2}),
    "Round 3 was the last round allowed.": ("last_round_allowed", {"round": 3}),
    (
        "Budget: the attacks (round 2) stage would cost about $0.0123 but only "
        "$0.0050 of $1.00 is left."
    ): (
        "budget",
        {"stage": "attacks", "round": 2, "estimate": "0.0123", "left": "0.0050", "budget": "1.00"},
    ),
    "The final is decided: scripted-cedar wins the tournament.": (
        "final_decided",
        {"winner": "scripted-cedar"},
    ),
    "Something only an old version said.": ("", {}),
}


# Slow: migrating back and forth re-renders the models hundreds of times (30-200 s under load).
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_it_reads_old_stop_sentences_into_codes_once() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps.get_model("debates", "Debate")
        ids = {
            old.objects.create(
                topic="t", status="done", stop_reason="MAX_ROUNDS", stop_detail=s
            ).pk: s
            for s in OLD_SENTENCES
        }
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps.get_model("debates", "Debate")
        for pk, sentence in ids.items():
            row = new.objects.get(pk=pk)
            assert (row.stop_code, row.stop_params) == OLD_SENTENCES[sentence]
            assert row.stop_detail == sentence  # the English stays for exports and the CLI
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    from engine.models import Debate

    with translation.override("es"):
        shown = {s: stop_detail(debate=Debate.objects.get(pk=pk)) for pk, s in ids.items()}
    assert shown["Round 3 was the last round allowed."] == "La ronda 3 era la última permitida."
    assert shown["Round 2 of 2 is done."] == "La ronda 2 de 2 terminó."
    assert "0,0123" in shown[next(s for s in OLD_SENTENCES if s.startswith("Budget"))]
    # A sentence no code was made for is shown as it was stored.
    assert shown["Something only an old version said."] == "Something only an old version said."
