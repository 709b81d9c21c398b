from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.models import Argument
from engine.models import Persona
from tests.fakes.stress_model import FakeStressModel

GROUNDS = "Cities with bike lanes report fewer traffic deaths per trip."

ELEMENTS = {
    "claim": "Our city should build protected bike lanes.",
    "grounds": GROUNDS,
    "warrant": "What lowers deaths per trip makes streets safer.",
    "grounds_backing": "",
    "warrant_backing": "",
    "qualifier": "In most neighbourhoods",
    "rebuttal": "Unless a street is too narrow for a lane",
}

# The Farmer raises the exception the student conceded (a narrow street).
SCRIPT = {
    "The Empiricist": ("undermine", "premise", 0, "Those cities differ in many other ways"),
    "The Skeptic": ("undercut", "assumption", 0, "Fewer deaths per trip is not overall safety"),
    "The Farmer": ("rebut", "claim", 0, "Narrow streets have no room for a lane"),
}


@pytest.fixture(autouse=True)
def _runs_in_threads(settings):
    """Runs go to the thread pool even with REDIS_URL (no Celery worker in these tests;
    the Celery path is the engine's, tested in tests/debates/test_celery_worker.py)."""
    settings.CELERY_TASK_ALWAYS_EAGER = True


@pytest.fixture
def ada(client):
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user


@pytest.fixture
def finished_argument(ada):
    return Argument.objects.create(
        owner=ada, title="Bike lanes", completed_at=timezone.now(), **ELEMENTS
    )


@pytest.fixture
def personas():
    return [
        Persona.objects.update_or_create(
            name=name, defaults={"worldview": f"{name} argues from evidence.", "active": True}
        )[0]
        for name in SCRIPT
    ]


@pytest.fixture
def stress_model(fake_anthropic):
    model = FakeStressModel(attacks=dict(SCRIPT), conceded_marker="narrow")
    fake_anthropic.responder = model
    return model
