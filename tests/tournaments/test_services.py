"""create_tournament: validation, model selection, seeding, limits; the estimate by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from engine.models import Debate, DebateStatus
from limits.services import LimitReached
from tournaments.models import Rating, Tournament
from tournaments.services import (
    ModelSelectionError,
    create_tournament,
    estimate_tournament_cost,
    known_models,
)

pytestmark = pytest.mark.django_db


def _create(**kwargs) -> Tournament:
    options = {
        "user": None,
        "question": "Should our city adopt congestion pricing or a car ban?",
        "decision_type": "policy",
        "budget_usd": Decimal("5"),
        "launch_now": False,
    }
    options.update(kwargs)
    return create_tournament(**options)


def test_the_estimate_matches_a_hand_computation(settings) -> None:
    # One match, one round, no context: prompts of 800 tokens (+900 per round of
    # transcript). Sonnet ($2/$10 per MTok): initial 800/700 = 0.0086, challenge and
    # defence 1700/800 = 0.0114 each; Haiku ($0.10/$0.50): 0.00043 + 2 x 0.00057;
    # arbiter 1400/300 = 0.00029; verdict 3500/500 = 0.0006. Sum 0.03386.
    estimate = estimate_tournament_cost(
        models=["claude-haiku-5-5", "claude-sonnet-5-5"],
        max_rounds=1,
        cheap_model="claude-haiku-5-5",
        prices=settings.LLM_PRICES,
    )
    assert estimate == Decimal("0.033860")


def test_it_saves_a_queued_tournament_seeded_by_rating(fake_model) -> None:
    Rating.objects.create(model="delta-1", decision_type="policy", rating=Decimal("1300"))
    tournament = _create(models=["alpha-1", "beta-1", "delta-1"], max_rounds=2)

    assert tournament.model_ids == ["delta-1", "alpha-1", "beta-1"]
    assert tournament.tournament_size == 3 and tournament.max_rounds == 2
    assert tournament.debate.format == "tournament"
    assert tournament.debate.status == DebateStatus.QUEUED
    assert Decimal("0") < tournament.estimated_cost_usd <= Decimal("5")


def test_it_picks_the_first_candidates_when_no_model_is_named(fake_model) -> None:
    assert sorted(_create(tournament_size=3).model_ids) == ["alpha-1", "beta-1", "gamma-1"]


@pytest.mark.parametrize(
    ("models", "words"),
    [
        (["alpha-1"], "2 to 5 models"),
        (["alpha-1", "alpha-1"], "only once"),
        (["claude-sonnet-5-5", "claude-sonnet-5-5-20261001"], "different families"),
    ],
)
def test_it_refuses_models_that_cannot_make_a_tournament(fake_model, models, words) -> None:
    with pytest.raises(ModelSelectionError) as refused:
        _create(models=models, force_diversity=True)
    assert words in refused.value.messages[0]
    assert not Debate.objects.exists()


def test_it_refuses_an_unknown_model_naming_it_and_the_known_ones(fake_model) -> None:
    with pytest.raises(ModelSelectionError) as refused:
        _create(models=["alpha-1", "claude-sonet-5-5"])

    [message] = refused.value.messages
    assert message.startswith("Unknown model: claude-sonet-5-5. The models known here are: ")
    assert "alpha-1, beta-1" in message and "claude-sonnet-5-5" in message
    assert refused.value.code == "unknown_model"
    assert not Debate.objects.exists()


def test_it_names_every_unknown_model(fake_model) -> None:
    with pytest.raises(ModelSelectionError, match="Unknown models: gpt-4o, alpha-9"):
        _create(models=["gpt-4o", "alpha-9", "beta-1"])


def test_a_default_price_does_not_make_a_misspelling_known(fake_model, settings) -> None:
    settings.LLM_PRICES = {**settings.LLM_PRICES, "default": {"input": 1, "output": 5}}

    with pytest.raises(ModelSelectionError, match="Unknown model: alpha1"):
        _create(models=["alpha1", "beta-1"])
    assert "default" not in known_models()


def test_a_dated_snapshot_of_a_priced_model_is_known(fake_model) -> None:
    tournament = _create(models=["alpha-1-20261001", "beta-1"])
    assert sorted(tournament.model_ids) == ["alpha-1-20261001", "beta-1"]


def test_it_refuses_an_unpriced_configured_model_it_would_pick(fake_model, settings) -> None:
    settings.TOURNAMENT_MODELS = ["alpha-1", "beta-1", "claude-sonet-5-5"]

    with pytest.raises(ModelSelectionError, match="Unknown model: claude-sonet-5-5"):
        _create(tournament_size=3)
    # Only the models picked are checked.
    assert _create(tournament_size=2).model_ids == ["alpha-1", "beta-1"]


def test_it_refuses_an_unknown_decision_type_and_an_empty_question(fake_model) -> None:
    with pytest.raises(ValidationError, match="decision type"):
        _create(decision_type="astrology", models=["alpha-1", "beta-1"])
    with pytest.raises(ValidationError, match="question"):
        _create(question="  ", models=["alpha-1", "beta-1"])


def test_it_applies_the_tournament_rate_limit(fake_model, settings) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "tournament": (1, 3600)}
    settings.LIMITS_EXEMPT_STAFF = False
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    _create(user=user, models=["alpha-1", "beta-1"])
    Debate.objects.update(status=DebateStatus.DONE)

    with pytest.raises(LimitReached):
        _create(user=user, models=["alpha-1", "beta-1"])
    assert Tournament.objects.count() == 1
