"""The demo tournament: loaded once, seen by a newcomer without an API key."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from engine.models import Debate
from tests.tournaments.pages_support import finished_tournament
from tournaments.demo import DEMO_FIXTURE, import_tournament, tournament_json
from tournaments.models import Match, Rating, RatingChange

pytestmark = pytest.mark.django_db


def _load() -> str:
    out = StringIO()
    call_command("load_demo_tournament", stdout=out)
    return out.getvalue()


def test_it_loads_the_demo_once() -> None:
    assert "Loaded" in _load()
    assert "already there" in _load()

    debate = Debate.objects.get(format="tournament", is_demo=True)
    assert Match.objects.filter(tournament__debate=debate).count() == 3
    assert RatingChange.objects.count() == 6


def test_it_shows_the_demo_to_a_newcomer_without_a_key(client, no_anthropic_key) -> None:
    _load()
    newcomer = get_user_model().objects.create_user("newcomer", password="a-long-enough-pass")
    client.force_login(newcomer)
    debate = Debate.objects.get(format="tournament", is_demo=True)

    new = client.get(reverse("tournaments:new")).content.decode()
    assert reverse("tournaments:detail", args=[debate.pk]) in new

    board = client.get(reverse("tournaments:leaderboard")).content.decode()
    assert debate.topic in board and "scripted-cedar" in board and "<polyline" in board

    page = client.get(reverse("tournaments:detail", args=[debate.pk])).content.decode()
    assert "scripted models" in page and "scripted-cedar" in page
    for match in Match.objects.filter(tournament__debate=debate):
        shown = client.get(reverse("tournaments:match", args=[debate.pk, match.pk]))
        assert shown.status_code == 200


def test_the_fixture_is_a_real_run() -> None:
    data = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))
    statuses = sorted(m["status"] for m in data["matches"])
    assert statuses == ["converged", "converged", "forced"]
    forced = next(m for m in data["matches"] if m["status"] == "forced")
    # A disputed match is an Elo draw between equals: nobody moves.
    assert all(c["before"] == c["after"] for c in forced["rating_changes"])
    assert data["debate"]["output"]["finalWinner"] == "scripted-cedar"


@pytest.mark.django_db(transaction=True)
def test_an_export_imports_back_to_the_same_tournament(fake_model) -> None:
    fake_model.strength = {"gamma-1": 90}
    debate = finished_tournament()
    data = tournament_json(debate)
    ratings = dict(Rating.objects.values_list("model", "rating"))
    Rating.objects.all().delete()

    copy = import_tournament(data=data, is_demo=True)

    assert copy.output["finalWinner"] == debate.output["finalWinner"]
    assert tournament_json(copy)["matches"] == data["matches"]
    assert dict(Rating.objects.values_list("model", "rating")) == ratings


def test_it_words_the_demo_s_disputed_match_in_spanish(client, no_anthropic_key) -> None:
    from django.conf import settings

    _load()
    client.force_login(get_user_model().objects.create_user("lector"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    debate = Debate.objects.get(format="tournament", is_demo=True)
    forced = Match.objects.get(tournament__debate=debate, status="forced")
    page = client.get(reverse("tournaments:match", args=[debate.pk, forced.pk])).content.decode()
    assert "Los modelos no convergieron (3 rondas" in page
    assert "did not converge" not in page
    assert "el juicio del árbitro" in page or "similitud del texto" in page
    # The chart's coordinates are not localised ("12,5" would break the SVG).
    assert 'cx="' in page and not re.search(r'c[xy]="\d+,\d', page)


def test_the_demo_reads_like_real_plans() -> None:
    data = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))
    words = json.dumps(data)
    # No placeholder text: real plans, weaknesses with evidence, answers to them.
    assert "Weakness 1 of the plan" not in words and "Evidence 1" not in words
    assert "Answered." not in words and "argued better." not in words
    challenges = [
        t["content"] for m in data["matches"] for t in m["turns"] if t["kind"] == "challenge"
    ]
    weaknesses = {w["weakness"] for c in challenges for w in c["critical_weaknesses"]}
    assert len(weaknesses) >= 6 and all(
        w["evidence"] for c in challenges for w in c["critical_weaknesses"]
    )
