"""A stop that names an inquiry's stage names it as people do, in either language."""

from __future__ import annotations

from django.utils import translation

from engine.stop_messages import english, stop_sentence

BUDGET = {"stage": "observer_critiques", "round": 1, "estimate": "0.02", "left": "0.01"}


def test_it_names_the_budgets_next_stage_in_words_not_its_id() -> None:
    params = {**BUDGET, "budget": "0.30"}
    with translation.override("es"):
        spanish = stop_sentence("budget", params)
    assert "Críticas de los observadores, ronda 1" in spanish
    assert "observer_critiques" not in spanish
    assert "Observers' critiques, round 1" in english("budget", params)
    resent = english("budget", {**params, "stage": "observer_critiques:resend"})
    assert "observer_critiques" not in resent
