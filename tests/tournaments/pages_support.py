"""A finished tournament for the page tests: created and run by the real pipeline
(create_tournament + run_debate) through the real SDK against the fake server."""

from __future__ import annotations

from decimal import Decimal

from engine.models import Debate
from engine.orchestrator import run_debate
from tests.tournaments.conftest import MODELS
from tournaments.services import create_tournament

__all__ = ["finished_tournament"]


def finished_tournament(
    *, user=None, question: str = "Which database for a 10,000-student course platform?", **kw
) -> Debate:
    options = {
        "user": user,
        "question": question,
        "decision_type": "database",
        "models": MODELS,
        "budget_usd": Decimal("2"),
        "launch_now": False,
    }
    options.update(kw)
    tournament = create_tournament(**options)
    run_debate(debate_id=tournament.debate_id)
    return Debate.objects.get(pk=tournament.debate_id)
