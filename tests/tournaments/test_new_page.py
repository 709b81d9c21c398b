"""The new-tournament page (tournaments:new): the options it offers and what it refuses."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.services import DEFAULT_MODELS

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_launch(monkeypatch):
    """The tournament is saved, not run: these tests are about the page's checks."""
    monkeypatch.setattr("tournaments.services.launch", lambda debate_id: None)


def _post(client, **fields):
    data = {
        "question": "Which cache for sessions?",
        "decision_type": "cache",
        "models": list(DEFAULT_MODELS),
        "max_rounds": "2",
        "convergence_threshold": "80",
        "budget_usd": "5.00",
    }
    data.update(fields)
    return client.post(reverse("tournaments:new"), data)


def test_it_starts_the_configured_models_with_force_diversity(
    client, ada, fake_anthropic, no_launch
) -> None:
    response = _post(client, force_diversity="on")

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert sorted(tournament.model_ids) == sorted(DEFAULT_MODELS)
    assert tournament.force_diversity is True


def test_it_refuses_a_configured_model_without_a_price_in_plain_words(
    client, ada, fake_anthropic, settings, no_launch
) -> None:
    settings.TOURNAMENT_MODELS = [*DEFAULT_MODELS, "claude-sonet-5-5"]

    response = _post(client, models=["claude-opus-5-5", "claude-sonet-5-5"])

    assert response.status_code == 200
    assert "Unknown model: claude-sonet-5-5." in response.content.decode()
    assert not Tournament.objects.exists()
