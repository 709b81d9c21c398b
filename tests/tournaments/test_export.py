"""The tournament's JSON download: on its page (EN/ES), its schema, and what the page shows."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from engine.models import Debate
from tests.schemas import schema_errors
from tournaments.models import RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client: Client) -> Debate:
    call_command("load_demo_tournament", stdout=StringIO())
    client.force_login(get_user_model().objects.create_user("newcomer"))
    return Debate.objects.select_related("tournament").get(format="tournament", is_demo=True)


@pytest.mark.parametrize(
    "language, words", [("en", "Download as JSON"), ("es", "Descargar como JSON")]
)
def test_it_offers_the_download_on_the_page(client, demo, language, words) -> None:
    client.cookies["django_language"] = language
    page = client.get(reverse("tournaments:detail", args=[demo.pk])).content.decode()
    assert f'<a href="{reverse("tournaments:export", args=[demo.pk])}" download>{words}</a>' in page


def test_it_exports_what_the_page_shows_in_a_document_its_schema_accepts(client, demo) -> None:
    response = client.get(reverse("tournaments:export", args=[demo.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{demo.pk}.json"'
    data = json.loads(response.content)
    assert schema_errors(data, "argue-tournament.v1") == []
    assert (data["format"], data["version"]) == ("argue-tournament", 1)
    tournament = demo.tournament
    assert data["isDemo"] is True and data["question"] == demo.topic
    assert data["budgetUsd"] == str(demo.budget_usd) and data["maxRounds"] == tournament.max_rounds
    assert data["result"] == demo.output and data["costUsd"] == str(demo.cost_usd)
    assert (data["stopCode"], data["stopParams"]) == (demo.stop_code, demo.stop_params)
    assert [m["id"] for m in data["matches"]] == list(
        tournament.matches.order_by("bracket_round", "slot").values_list("pk", flat=True)
    )
    assert all(m["turns"] for m in data["matches"])
    # The ratings each match moved, and per model before its first match and after its last.
    changes = RatingChange.objects.select_related("rating").order_by("created_at", "id")
    assert [(c["model"], c["before"], c["after"]) for c in data["ratingChanges"]] == [
        (c.rating.model, str(c.before), str(c.after)) for c in changes
    ]
    winner = demo.output["finalWinner"]
    [entry] = [r for r in data["ratings"] if r["model"] == winner]
    moved = [c for c in changes if c.rating.model == winner]
    assert (entry["before"], entry["after"]) == (str(moved[0].before), str(moved[-1].after))
    assert float(entry["after"]) > float(entry["before"])


def test_it_is_a_404_for_someone_elses_tournament(client, demo) -> None:
    Debate.objects.filter(pk=demo.pk).update(is_demo=False)
    assert client.get(reverse("tournaments:export", args=[demo.pk])).status_code == 404


@pytest.mark.parametrize("loader", ["load_demo_debate", "load_demo_stress_test"])
def test_it_is_a_404_for_the_id_of_another_format(client, loader) -> None:
    call_command(loader, stdout=StringIO())
    client.force_login(get_user_model().objects.create_user("newcomer"))
    other = Debate.objects.exclude(format="tournament").get(is_demo=True)
    assert client.get(reverse("tournaments:export", args=[other.pk])).status_code == 404
