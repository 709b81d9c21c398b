"""A tournament runs on the shared debate engine, through the real SDK and the fake server."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import transaction

from engine.models import Debate, DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from tests.fakes.tournament_model import CONSENSUS
from tests.tournaments.conftest import FIFTH, MODELS
from tournaments import judging
from tournaments.models import Match, MatchStatus, Rating, RatingChange, Turn
from tournaments.schemas import ModelResponse
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


def test_it_forces_a_match_that_never_converges_and_counts_a_draw(fake_model) -> None:
    fake_model.stubborn = {"alpha-1", "beta-1"}
    fake_model.strength = {"alpha-1": 80}
    tournament = _start(models=["alpha-1", "beta-1"], max_rounds=2)

    debate = _run(tournament)

    assert debate.status == DebateStatus.DONE, debate.error
    match = Match.objects.get(tournament=tournament)
    assert match.status == MatchStatus.FORCED and match.is_disputed
    assert "did not converge" in match.disputed_reason
    assert match.rounds == 2
    assert [c["method"] for c in match.convergence_scores] == ["arbiter", "arbiter"]
    assert all(c["semantic_skipped"] for c in match.convergence_scores)
    assert match.final_convergence == 40
    # The arbiter's pick advances; Elo counts a draw (equal ratings: no change).
    assert match.winner == "alpha-1"
    assert set(Rating.objects.values_list("rating", flat=True)) == {Decimal("1200.00")}
    assert set(Rating.objects.values_list("draws", flat=True)) == {1}
    assert debate.output["semanticSkipped"].startswith("Semantic convergence was skipped")
    # Round 2 asked the arbiter the very same question (nobody moved): the ledger
    # answered it, one paid convergence call.
    assert LLMCall.objects.filter(debate=debate, stage="converge").count() == 1


def test_it_forfeits_a_model_the_service_never_answers(fake_model) -> None:
    fake_model.failing = {"beta-1"}
    fake_model.strength = {"alpha-1": 90}
    tournament = _start()

    debate = _run(tournament)

    assert debate.status == DebateStatus.DONE, debate.error
    failed = Match.objects.get(tournament=tournament, status=MatchStatus.FAILED)
    assert failed.loser == "beta-1"
    assert (
        "forfeits" in failed.failure_reason and "AI service did not answer" in failed.failure_reason
    )
    assert failed.failure_detail["model"] == "beta-1" and failed.failure_detail["service"]
    assert not RatingChange.objects.filter(match=failed).exists()
    assert debate.output["complete"] and "beta-1" in debate.output["eliminationOrder"]
    assert debate.output["finalWinner"] != "beta-1"


def test_it_fails_with_retry_when_both_models_of_a_match_are_unreachable(fake_model) -> None:
    fake_model.failing = {"alpha-1", "gamma-1"}  # seeds 1 and 4 meet in round 1
    tournament = _start(models=["alpha-1", "beta-1", "gamma-1", "delta-1"])

    debate = _run(tournament)

    assert debate.status == DebateStatus.FAILED and debate.can_retry
    assert debate.failure == "service_unavailable"
    assert not StageRun.objects.filter(debate=debate).exists()


def test_it_sends_a_soft_challenge_back_once(fake_model) -> None:
    fake_model.soft = {"beta-1"}
    tournament = _start(models=["alpha-1", "beta-1"])

    debate = _run(tournament)

    assert debate.status == DebateStatus.DONE, debate.error
    turn = Turn.objects.get(match__tournament=tournament, kind="challenge", model="beta-1")
    assert turn.sent_back and len(turn.content["critical_weaknesses"]) == 3
    resent = [r for r in LLMCall.objects.filter(debate=debate, stage="rechallenge")]
    assert len(resent) == 1


def test_a_resumed_tournament_applies_each_match_once(
    fake_anthropic, fake_model, monkeypatch
) -> None:
    real_apply = judging.apply_elo
    crashed = []

    def apply_then_die(match, decision_type):
        # The final's ratings are written, then the worker dies before the commit.
        real_apply(match, decision_type)
        if match.bracket_round == 2 and not crashed:
            crashed.append(match.pk)
            raise RuntimeError("worker killed")

    monkeypatch.setattr(judging, "apply_elo", apply_then_die)
    tournament = _start()
    debate = _run(tournament)
    assert debate.status == DebateStatus.FAILED and crashed
    assert not RatingChange.objects.filter(match_id=crashed[0]).exists()  # rolled back
    paid, asked = LLMCall.objects.filter(debate=debate).count(), len(fake_anthropic.requests)
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.QUEUED, failure="")

    debate = _run(tournament)
    run_debate(debate_id=debate.pk)  # a third attempt finds it finished

    assert debate.status == DebateStatus.DONE, debate.error
    # The final's verdict was replayed from the ledger: nothing paid or asked twice.
    assert LLMCall.objects.filter(debate=debate).count() == paid
    assert len(fake_anthropic.requests) == asked
    assert RatingChange.objects.count() == 6
    for rating in Rating.objects.all():
        chain = list(rating.history.order_by("id"))
        assert chain[0].before == Decimal("1200.00") and chain[-1].after == rating.rating
        assert all(chain[i].before == chain[i - 1].after for i in range(1, len(chain)))
        assert rating.matches_played == len(chain)


def test_it_records_live_events_for_the_bracket(fake_model) -> None:
    tournament = _start(models=["alpha-1", "beta-1"])

    debate = _run(tournament)

    types = list(debate.events.order_by("seq").values_list("type", flat=True))
    assert types[0] == "debate_start" and types[-1] == "debate_complete"
    assert types.count("match_started") == 1 and types.count("match_finished") == 1
    assert types.count("match_convergence") == 1
    finished = debate.events.get(type="match_finished").payload
    assert finished["winner"] and set(finished["ratings"]) == {"alpha-1", "beta-1"}


def test_an_initial_recommendation_carries_the_call_s_metadata(fake_model) -> None:
    tournament = _start(models=["alpha-1", "beta-1"])
    _run(tournament)

    turn = Turn.objects.get(match__tournament=tournament, kind="initial", model="alpha-1")
    response = ModelResponse.model_validate(turn.content)
    assert response.model_id == "alpha-1"
    assert response.input_tokens > 0 and response.output_tokens > 0
    assert response.response_seconds >= 0
    assert response.confidence_factors.overall() == pytest.approx(0.7)


def test_a_five_model_bracket_gives_the_top_seeds_byes(fake_model) -> None:
    fake_model.strength = {"epsilon-1": 95}
    tournament = _start(models=[*MODELS, FIFTH])

    debate = _run(tournament)

    assert debate.status == DebateStatus.DONE, debate.error
    rounds = list(
        Match.objects.filter(tournament=tournament).values_list("bracket_round", flat=True)
    )
    assert rounds == [1, 2, 2, 3]  # 8 slots: one match and three byes, then 2, then the final
    first = Match.objects.get(tournament=tournament, bracket_round=1)
    assert {first.model_a, first.model_b} == {tournament.model_ids[3], tournament.model_ids[4]}
    assert debate.output["finalWinner"] == "epsilon-1"
    assert len(debate.output["eliminationOrder"]) == 4


def test_it_moves_both_ratings_of_a_rated_match_within_five_queries(
    fake_model, django_assert_max_num_queries
) -> None:
    tournament = _start(models=["alpha-1", "beta-1"])
    _run(tournament)
    before = {r.model: r.rating for r in Rating.objects.all()}
    rematch = Match.objects.create(
        tournament=tournament,
        bracket_round=9,
        slot=0,
        model_a="alpha-1",
        model_b="beta-1",
        winner="beta-1",
        loser="alpha-1",
    )
    # Already applied? Lock both ratings (one query), update each, record both changes;
    # in the judging stage's transaction, as the engine runs it.
    with transaction.atomic(), django_assert_max_num_queries(5):
        changes = judging.apply_elo(rematch, tournament.decision_type)
    after = {r.model: r for r in Rating.objects.all()}
    assert after["beta-1"].rating > before["beta-1"] and after["alpha-1"].rating < before["alpha-1"]
    assert changes == {m: [str(before[m]), str(after[m].rating)] for m in ("alpha-1", "beta-1")}
    assert RatingChange.objects.filter(match=rematch).count() == 2
    with transaction.atomic(), django_assert_max_num_queries(1):  # once only
        assert judging.apply_elo(rematch, tournament.decision_type) == {}
