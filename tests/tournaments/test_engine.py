"""A tournament runs on the shared debate engine, through the real SDK and the fake server."""

from __future__ import annotations

from decimal import Decimal

import pytest

from debates.models import Debate, DebateStatus, LLMCall, StageRun
from debates.orchestrator import run_debate
from tests.fakes.tournament_model import CONSENSUS
from tests.tournaments.conftest import MODELS
from tournaments.models import Match, MatchStatus, Rating, RatingChange
from tournaments.services import create_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _start(**kwargs):
    options = {
        "user": None,
        "question": "Which database for a 10,000-student course platform?",
        "decision_type": "database",
        "models": MODELS,
        "budget_usd": Decimal("5"),
        "launch_now": False,
    }
    options.update(kwargs)
    return create_tournament(**options)


def _run(tournament) -> Debate:
    run_debate(debate_id=tournament.debate_id)
    return Debate.objects.get(pk=tournament.debate_id)


def test_it_runs_a_four_model_tournament_to_a_winner(fake_model) -> None:
    fake_model.strength = {"gamma-1": 90, "alpha-1": 70}
    tournament = _start()

    debate = _run(tournament)

    assert debate.status == DebateStatus.DONE, debate.error
    output = debate.output
    assert output["finalWinner"] == "gamma-1"
    assert output["finalRecommendation"] == CONSENSUS
    assert output["complete"] is True
    matches = list(Match.objects.filter(tournament=tournament))
    assert [(m.bracket_round, m.status) for m in matches] == [
        (1, MatchStatus.CONVERGED),
        (1, MatchStatus.CONVERGED),
        (2, MatchStatus.CONVERGED),
    ]
    assert len(output["eliminationOrder"]) == 3 and "gamma-1" not in output["eliminationOrder"]
    # Converged in round 1: structurally identical words, no arbiter convergence call.
    assert all(m.rounds == 1 and m.final_convergence == 100 for m in matches)
    assert not LLMCall.objects.filter(debate=debate, stage="converge").exists()
    # Elo: three decided matches, six rating changes, zero-sum.
    assert RatingChange.objects.count() == 6
    ratings = dict(Rating.objects.values_list("model", "rating"))
    assert sum(ratings.values()) == Decimal("4800.00")
    assert ratings["gamma-1"] > Decimal("1200")
    assert output["totalCost"] == str(debate.cost_usd) and debate.cost_usd > 0
    assert output["keyRefinements"]
    # The matches of one bracket round ran in one stage: 2 matches x 2 sides.
    initial = StageRun.objects.get(debate=debate, name="initial", round=100)
    assert initial.calls == 4
