"""Exports parse back: the JSON record, and the framework in ICCMA'23 format."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from argumentation import grounded_labelling
from argumentation.formats import parse_iccma23
from debates.graph import build_framework
from debates.state import load_state
from engine.models import Debate
from tests.debates.pages_support import finished_debate
from tests.schemas import schema_errors

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(client):
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client.force_login(user)
    return user


@pytest.fixture
def debate(fake_anthropic, ada):
    return finished_debate(fake_anthropic, creator=ada, personas=3, rounds=2)


def test_it_exports_the_framework_in_iccma23_that_parses_back_to_the_same_graph(
    client, debate
) -> None:
    response = client.get(f"/debates/{debate.pk}/framework.af")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="debate-{debate.pk}.af"'
    text = response.content.decode()
    assert text.startswith("p af ")
    parsed = parse_iccma23(text, names=True)
    framework = build_framework(load_state(debate))
    assert parsed == framework
    assert len(parsed.attacks) > 0 and len(parsed.arguments) > 0
    # The same graph gives the same judgement as the stored outcome.
    labels = {str(a): label.value for a, label in grounded_labelling(parsed).items()}
    assert labels == debate.output["labels"]
    numbered = parse_iccma23(text)  # a solver reading only the numbers sees the same shape
    assert (len(numbered.arguments), len(numbered.attacks)) == (
        len(framework.arguments),
        len(framework.attacks),
    )


def test_it_exports_the_whole_debate_as_json(client, debate) -> None:
    response = client.get(f"/debates/{debate.pk}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert data["format"] == "argue-debate" and data["version"] == 1
    assert data["debate"]["topic"] == debate.topic
    assert data["debate"]["status"] == debate.status
    assert data["debate"]["cost_usd"] == str(debate.cost_usd)
    assert [a["id"] for a in data["arguments"]] == list(
        debate.arguments.order_by("id").values_list("key", flat=True)
    )
    assert [t["id"] for t in data["attacks"]] == list(
        debate.attacks.order_by("id").values_list("id", flat=True)
    )
    validated = debate.attacks.filter(validation__isnull=False)
    assert {t["id"] for t in data["attacks"] if t["strength"] is not None} == {
        t.pk for t in validated
    }
    assert [e["seq"] for e in data["events"]] == list(range(1, debate.events.count() + 1))
    assert "calls" not in data  # the per-call token ledger is instructor detail
    assert data["output"] == debate.output
    framework = build_framework(load_state(debate))
    assert set(data["framework"]["arguments"]) == set(framework.arguments)
    assert {tuple(edge) for edge in data["framework"]["attacks"]} == set(framework.attacks)


def test_it_gives_instructors_the_call_ledger_in_the_json_export(client, debate) -> None:
    tess = get_user_model().objects.create_user(
        "tess", password="a-long-enough-pass", is_staff=True, is_superuser=True
    )
    client.force_login(tess)
    data = json.loads(client.get(f"/debates/{debate.pk}/export.json").content)
    calls = debate.llm_calls.all()
    assert len(data["calls"]) == len(calls) > 0
    assert sum(c["input_tokens"] for c in data["calls"]) == sum(c.input_tokens for c in calls)


def test_it_serves_the_graph_as_a_standalone_svg(client, debate) -> None:
    response = client.get(f"/debates/{debate.pk}/graph.svg")
    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')


def test_it_exports_only_debates_the_user_may_see(client, debate) -> None:
    grace = get_user_model().objects.create_user("grace", password="a-long-enough-pass")
    client.force_login(grace)
    for suffix in ("export.json", "framework.af", "graph.svg", "live/", "replay/", ""):
        assert client.get(f"/debates/{debate.pk}/{suffix}").status_code == 404


def test_it_exports_json_that_its_schema_accepts(client, debate) -> None:
    student = json.loads(client.get(f"/debates/{debate.pk}/export.json").content)
    assert schema_errors(student, "argue-debate.v1") == []
    tess = get_user_model().objects.create_user("tess", is_staff=True, is_superuser=True)
    client.force_login(tess)
    instructor = json.loads(client.get(f"/debates/{debate.pk}/export.json").content)
    assert instructor["calls"] and schema_errors(instructor, "argue-debate.v1") == []
    instructor["debate"]["budget_usd"] = 1.5  # money is a decimal string: a float fails
    assert schema_errors(instructor, "argue-debate.v1") == [
        "debate/budget_usd: 1.5 is not of type 'string', 'null'"
    ]


@pytest.mark.parametrize(
    "loader", ["load_demo_tournament", "load_demo_stress_test", "load_demo_inquiry"]
)
def test_it_answers_404_for_the_id_of_another_format(client, ada, loader) -> None:
    call_command(loader, stdout=StringIO())
    other = Debate.objects.exclude(format="graph").get(is_demo=True)
    assert client.get(f"/debates/{other.pk}/").status_code == 302  # its own page
    for suffix in ("export.json", "framework.af"):
        assert client.get(f"/debates/{other.pk}/{suffix}").status_code == 404, suffix
