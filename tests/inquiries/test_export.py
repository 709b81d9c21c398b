"""The inquiry's JSON download: format and version, its schema, and what its page shows."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from engine.models import Debate
from inquiries.models import GateViolation
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client):
    call_command("load_demo_inquiry", stdout=StringIO())
    client.force_login(get_user_model().objects.create_user("newcomer"))
    return Debate.objects.get(format="inquiry", is_demo=True)


def test_it_exports_what_the_page_shows_in_a_document_its_schema_accepts(client, demo) -> None:
    response = client.get(reverse("inquiries:export", args=[demo.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="inquiry-{demo.pk}.json"'
    data = json.loads(response.content)
    assert schema_errors(data, "argue-inquiry.v1") == []
    assert (data["format"], data["version"]) == ("argue-inquiry", 1)
    # The page's facts: cost, round limit and rounds done, the demo flag, the stop.
    page = client.get(reverse("inquiries:detail", args=[demo.pk])).content.decode()
    assert data["isDemo"] is True and "badge demo" in page
    # A student reads the cost as a level (home/spend.py); the export keeps the amount.
    assert data["costUsd"] == str(demo.cost_usd) and f"${demo.cost_usd:.4f}" not in page
    assert "· small</p>" in page
    assert (data["maxRounds"], data["roundsCompleted"]) == (demo.max_rounds, demo.rounds_completed)
    assert f"round {demo.rounds_completed} of at most {demo.max_rounds}" in page
    assert data["budgetUsd"] == str(demo.budget_usd) and data["stopReason"] == demo.stop_reason
    assert (data["stopCode"], data["stopParams"]) == (demo.stop_code, demo.stop_params)
    assert data["models"]["arbiter"] == demo.inquiry.arbiter_model
    assert data["rounds"] == demo.inquiry.round_log and data["output"] == demo.output
    rules = [v["rule"] for output in data["outputs"] for v in output["violations"]]
    assert sorted(rules) == sorted(
        GateViolation.objects.filter(inquiry_id=demo.pk).values_list("rule", flat=True)
    )


def test_it_answers_404_for_a_debate_of_another_format(client, demo) -> None:
    call_command("load_demo_tournament", stdout=StringIO())
    tournament = Debate.objects.get(format="tournament", is_demo=True)
    assert client.get(reverse("inquiries:export", args=[tournament.pk])).status_code == 404
