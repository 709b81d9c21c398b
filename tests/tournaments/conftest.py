from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from tests.fakes.tournament_model import FakeTournamentModel

PRICE = {"input": Decimal("1"), "output": Decimal("5")}
MODELS = ["alpha-1", "beta-1", "gamma-1", "delta-1"]
FIFTH = "epsilon-1"


@pytest.fixture
def tournament_prices(settings):
    """Prices for the test models (one family each), so costs are not zero."""
    settings.LLM_PRICES = {**settings.LLM_PRICES, **{m: PRICE for m in [*MODELS, FIFTH]}}
    settings.TOURNAMENT_MODELS = MODELS
    settings.LLM_MAX_RETRIES = 1
    settings.TOURNAMENT_SEMANTIC = ""
    return settings


@pytest.fixture
def fake_model(fake_anthropic, tournament_prices):
    model = FakeTournamentModel()
    fake_anthropic.responder = model
    return model


@pytest.fixture
def ada(client):
    """A signed-in user (the page tests' client is hers)."""
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user


@pytest.fixture
def grace():
    """Another user."""
    return get_user_model().objects.create_user("grace", password="a-long-enough-pass")


@pytest.fixture
def scaling_notes(db):
    """A private case file (its owner is "owner") with one source the fake model's research finds."""
    from casefiles import services as casefiles

    owner = get_user_model().objects.create_user("owner", password="a-long-enough-pass")
    case_file = casefiles.create_case_file(owner=owner, title="Scaling notes")
    casefiles.add_source(
        case_file=case_file,
        title="Ops review",
        text="Read replicas and connection pooling carried the exam-week load.",
    )
    return case_file
