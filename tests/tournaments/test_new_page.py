"""The new-tournament page (tournaments:new): the options it offers and what it refuses."""

from __future__ import annotations

import pytest
from django.urls import reverse

from casefiles.models import Visibility
from casefiles.services import create_case_file
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


@pytest.fixture
def case_files(ada, grace):
    """Ada's own, Grace's public one, and Grace's private one."""
    return {
        "mine": create_case_file(owner=ada, title="Ada's readings"),
        "public": create_case_file(owner=grace, title="Open data", visibility=Visibility.PUBLIC),
        "private": create_case_file(owner=grace, title="Grace's diary"),
    }


def test_it_offers_the_case_files_the_user_may_read(client, ada, case_files) -> None:
    page = client.get(reverse("tournaments:new")).content.decode()

    assert 'name="case_file"' in page
    assert "Ada&#x27;s readings" in page and "Open data" in page
    assert "Grace&#x27;s diary" not in page
    assert "None: research searches the context" in page


@pytest.mark.parametrize("which", ["mine", "public"])
def test_it_attaches_the_case_file_chosen(
    client, ada, fake_anthropic, no_launch, case_files, which
) -> None:
    response = _post(client, case_file=str(case_files[which].pk))

    assert response.status_code == 302
    assert Tournament.objects.get().case_file == case_files[which]


def test_it_starts_without_a_case_file(client, ada, fake_anthropic, no_launch) -> None:
    assert _post(client, case_file="").status_code == 302
    assert Tournament.objects.get().case_file is None


@pytest.mark.parametrize("posted", ["private", "404", "x", "9" * 40, "-1"])
def test_it_refuses_a_case_file_the_user_may_not_read_on_the_field(
    client, ada, fake_anthropic, no_launch, case_files, posted
) -> None:
    value = str(case_files[posted].pk) if posted == "private" else posted

    response = _post(client, case_file=value)

    assert response.status_code == 200
    page = response.content.decode()
    assert "That case file is not one you can use. Choose one of yours or a public one." in page
    assert "Grace&#x27;s diary" not in page
    assert not Tournament.objects.exists()
