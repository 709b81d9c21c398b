"""Budget: refused before starting, a match stopped by its share, the tournament stopped."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.models import Debate, DebateStatus
from engine.orchestrator import run_debate
from engine.stop_reasons import StopReason
from tournaments import challenges
from tournaments.budget import BudgetExceeded
from tournaments.models import Match, MatchStatus, Tournament
from tournaments.reports import export_summary, stop_text
from tournaments.services import create_tournament, estimate_tournament_cost

pytestmark = pytest.mark.django_db(transaction=True)


def _create(budget: str, **kwargs) -> Tournament:
    return create_tournament(
        user=None,
        question="Which message queue for grading jobs?",
        decision_type="messaging",
        models=["alpha-1", "beta-1"],
        budget_usd=Decimal(budget),
        launch_now=False,
        **kwargs,
    )


def test_it_refuses_an_estimate_over_the_budget_in_plain_words(fake_model, settings) -> None:
    estimate = estimate_tournament_cost(
        models=["alpha-1", "beta-1"],
        max_rounds=3,
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
    )
    with pytest.raises(BudgetExceeded) as refused:
        _create("0.01")
    assert refused.value.estimated == estimate and refused.value.limit == Decimal("0.01")
    assert refused.value.overage == estimate - Decimal("0.01")
    assert "over its budget of $0.01" in str(refused.value)
    assert not Debate.objects.exists()


def test_the_estimate_grows_with_models_and_rounds(settings) -> None:
    def estimate(models, rounds):
        return estimate_tournament_cost(
            models=models,
            max_rounds=rounds,
            cheap_model="claude-haiku-5-5",
            prices=settings.LLM_PRICES,
        )

    two = estimate(["claude-haiku-5-5", "claude-sonnet-5-5"], 3)
    assert estimate(["claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5"], 3) > two
    assert estimate(["claude-haiku-5-5", "claude-sonnet-5-5"], 1) < two


def test_a_match_whose_share_runs_out_goes_to_the_verdict_early(fake_model, monkeypatch) -> None:
    fake_model.stubborn = {"alpha-1", "beta-1"}
    monkeypatch.setattr(challenges, "match_share", lambda state, br: Decimal("0.000001"))
    tournament = _create("5")

    run_debate(debate_id=tournament.debate_id)

    match = Match.objects.get(tournament=tournament)
    assert match.budget_stopped and match.rounds == 1  # round 1 is always played
    assert match.status == MatchStatus.FORCED
    assert "budget share ran out" in match.disputed_reason
    debate = Debate.objects.get(pk=tournament.debate_id)
    assert debate.status == DebateStatus.DONE and debate.output["matches"][0]["budgetStopped"]


def test_the_tournament_stops_cleanly_when_the_budget_is_spent(fake_model) -> None:
    tournament = _create("5")
    Debate.objects.filter(pk=tournament.debate_id).update(budget_usd=Decimal("0.0001"))

    run_debate(debate_id=tournament.debate_id)

    debate = Debate.objects.get(pk=tournament.debate_id)
    assert debate.status == DebateStatus.STOPPED
    assert (debate.stop_reason, debate.stop_code) == (StopReason.BUDGET, "budget")
    # Stored as the code and its parameters, worded when a report is written.
    assert (debate.output["stopCode"], debate.output["stopParams"]) == (
        debate.stop_code,
        debate.stop_params,
    )
    assert "stopDetail" not in debate.output
    assert debate.output["complete"] is False and "is left" in stop_text(debate.output)
    assert f"Stopped early: {stop_text(debate.output)}" in export_summary(
        {"question": debate.topic, "decisionType": "general", "status": debate.status},
        debate.output,
    )


def test_its_page_says_why_it_stopped_in_the_readers_language(fake_model, client) -> None:
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    tournament = _create("5")
    Debate.objects.filter(pk=tournament.debate_id).update(budget_usd=Decimal("0.0001"))
    run_debate(debate_id=tournament.debate_id)
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    Debate.objects.filter(pk=tournament.debate_id).update(creator=user)
    client.force_login(user)

    page = client.get(
        reverse("tournaments:detail", args=[tournament.debate_id]), HTTP_ACCEPT_LANGUAGE="es"
    )

    text = page.content.decode()
    assert "El torneo se detuvo antes de su final." in text
    assert "pero solo quedan" in text
    assert "is left" not in text  # the English sentence the output keeps
