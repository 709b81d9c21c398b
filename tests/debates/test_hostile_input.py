"""Debate pages given ids and numbers no database holds: a form error or a plain answer, no 5xx."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine.events import DEBATE_COMPLETE, record_event
from engine.models import Debate, DebateStatus
from engine.sse import parse_last_event_id
from tests.debates.factories import default_personas

pytestmark = pytest.mark.django_db

BAD_IDS = ["²", "٣", "9" * 40, str(2**63), "-1", "1e3"]


@pytest.fixture
def ada(client):
    user = get_user_model().objects.create_user("ada")
    client.force_login(user)
    return user


@pytest.mark.parametrize("bad", BAD_IDS)
def test_it_refuses_persona_ids_no_database_holds_as_a_form_error(client, ada, bad) -> None:
    good = [str(persona.pk) for persona in default_personas(2)]
    data = {"topic": "Should cities ban cars?", "personas": [*good, bad], "max_rounds": "2"}

    page = client.post("/debates/new/", data)
    estimate = client.get("/debates/new/estimate/", data)

    assert page.status_code == 200 and "is not a valid value" in page.content.decode()
    assert estimate.status_code == 200  # the estimate ignores what it cannot read
    assert not Debate.objects.exists()


@pytest.mark.parametrize("rounds", ["²", "9" * 5000, "-3", "٣"])
def test_it_estimates_with_the_default_rounds_when_they_are_unreadable(client, ada, rounds) -> None:
    ids = [str(persona.pk) for persona in default_personas(2)]
    response = client.get("/debates/new/estimate/", {"personas": ids, "max_rounds": rounds})
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("value", "after"),
    [
        ("9" * 4301, 0),
        ("9" * 20, 0),
        (str(2**63 - 1), 2**63 - 1),
        (" 12 ", 12),
        ("²", 0),
        (None, 0),
    ],
)
def test_it_resumes_after_a_seq_only_when_a_database_can_hold_it(value, after) -> None:
    assert parse_last_event_id(value) == after


def test_it_answers_a_reconnect_with_a_huge_last_event_id(client, ada) -> None:
    debate = Debate.objects.create(topic="Cities should ban cars", creator=ada)
    record_event(debate=debate, type=DEBATE_COMPLETE, payload={})
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.DONE)
    for value in ("9" * 4301, str(2**63 - 1)):
        response = client.get(f"/debates/{debate.pk}/events", headers={"Last-Event-ID": value})
        assert response.status_code in (200, 204)
        response = client.get(f"/debates/{debate.pk}/events", {"last_event_id": value})
        assert response.status_code in (200, 204)
