"""The tournament pages through Django's test client: access, escaping, CSRF, content."""

from __future__ import annotations

import re
from decimal import ROUND_UP, Decimal

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from engine.models import Debate
from tests.tournaments.conftest import MODELS
from tests.tournaments.pages_support import finished_tournament
from tournaments.models import Match, Rating, Tournament
from tournaments.services import estimate_tournament_cost

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = "<script>alert('pwned')</script>"


def _pages(debate: Debate) -> list[str]:
    match = Match.objects.filter(tournament__debate=debate).first()
    return [
        reverse("tournaments:detail", args=[debate.pk]),
        reverse("tournaments:bracket", args=[debate.pk]),
        reverse("tournaments:match", args=[debate.pk, match.pk]),
    ]


def test_it_shows_the_owner_the_bracket_result_and_matches(client, ada, fake_model) -> None:
    fake_model.strength = {"gamma-1": 90}
    debate = finished_tournament(user=ada)
    detail, bracket, match = _pages(debate)

    page = client.get(detail).content.decode()
    assert "gamma-1" in page and "Winner" in page
    assert "Bracket round 2" in page
    assert "Use PostgreSQL with read replicas" in page
    assert client.get(bracket).status_code == 200

    shown = client.get(match).content.decode()
    assert "<svg" in shown and "<polyline" in shown
    assert "<td>100.0</td>" in shown  # the chart's numbers, in its table
    assert "Transcript" in shown and "Challenge" in shown


def test_it_hides_another_users_tournament(client, ada, grace, fake_model) -> None:
    debate = finished_tournament(user=grace)

    for url in [*_pages(debate), reverse("engine:events", args=[debate.pk])]:
        assert client.get(url).status_code == 404, url


def test_it_sends_anonymous_visitors_to_sign_in(client, grace, fake_model) -> None:
    debate = finished_tournament(user=grace)
    urls = [
        *_pages(debate),
        reverse("tournaments:new"),
        reverse("tournaments:leaderboard"),
        reverse("tournaments:health"),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_it_404s_a_match_of_another_tournament(client, ada, grace, fake_model) -> None:
    mine = finished_tournament(user=ada, models=MODELS[:2])
    theirs = finished_tournament(user=grace, models=MODELS[2:])
    their_match = Match.objects.get(tournament__debate=theirs)

    url = reverse("tournaments:match", args=[mine.pk, their_match.pk])
    assert client.get(url).status_code == 404


def test_it_escapes_the_question_and_model_words(client, ada, fake_model) -> None:
    debate = finished_tournament(user=ada, question=f"Which database? {HOSTILE}")

    for url in _pages(debate):
        page = client.get(url).content.decode()
        assert HOSTILE not in page
    assert "&lt;script&gt;" in client.get(_pages(debate)[0]).content.decode()


def test_it_says_a_key_is_needed_without_one(client, ada, no_anthropic_key) -> None:
    page = client.get(reverse("tournaments:new")).content.decode()

    assert "AI service is not set up yet" in page and "ANTHROPIC_API_KEY" not in page
    assert "disabled" in page


def test_it_estimates_the_cost_as_the_form_changes(client, ada, tournament_prices) -> None:
    url = reverse("tournaments:estimate")
    few = client.get(url, {"models": MODELS[:1], "max_rounds": "3"}).content.decode()
    assert "Choose two to five models" in few

    page = client.get(url, {"models": MODELS, "max_rounds": "3"}).content.decode()
    # A student reads a level, an instructor the amount and what it is for (home/spend.py).
    assert "Estimated cost" in page and "$" not in page and "3 matches" not in page
    ada.is_staff = True
    ada.save()
    page = client.get(url, {"models": MODELS, "max_rounds": "3"}).content.decode()
    assert "Estimated cost" in page and "$" in page and "3 matches" in page
    assert client.get(url, {"models": MODELS, "max_rounds": "x" * 50}).status_code == 200


def test_it_starts_a_tournament_from_the_form(client, ada, fake_anthropic, tournament_prices):
    response = client.post(
        reverse("tournaments:new"),
        {
            "question": "Which cache for sessions?",
            "decision_type": "cache",
            "models": MODELS[:2],
            "max_rounds": "2",
            "convergence_threshold": "80",
            "budget_usd": "0.01",  # a student names no budget: a posted one is ignored
        },
    )

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[tournament.debate_id])
    assert tournament.debate.creator == ada and tournament.decision_type == "cache"
    # Half again the estimate, as on the debate form: enough to finish, never a student's guess.
    estimate = estimate_tournament_cost(
        models=MODELS[:2],
        max_rounds=2,
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
    )
    assert tournament.debate.budget_usd == (estimate * Decimal("1.5")).quantize(
        Decimal("0.01"), rounding=ROUND_UP
    )


def test_it_asks_a_student_for_no_dollar_budget_and_staff_for_one(client, ada) -> None:
    assert "budget_usd" not in client.get(reverse("tournaments:new")).content.decode()
    ada.is_staff = True
    ada.save()
    assert 'name="budget_usd"' in client.get(reverse("tournaments:new")).content.decode()


def test_it_refuses_a_budget_below_the_estimate_in_plain_words(
    client, ada, fake_anthropic, tournament_prices
) -> None:
    ada.is_staff = True  # staff name a budget; a student's is half again the estimate
    ada.save()
    page = client.post(
        reverse("tournaments:new"),
        {
            "question": "Which cache for sessions?",
            "decision_type": "cache",
            "models": MODELS,
            "max_rounds": "5",
            "convergence_threshold": "80",
            "budget_usd": "0.01",
        },
    ).content.decode()

    assert "over its budget" in page
    assert not Tournament.objects.exists()


def test_it_needs_the_csrf_token_to_start(ada, fake_anthropic, tournament_prices) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(ada)

    response = client.post(
        reverse("tournaments:new"),
        {"question": "q", "decision_type": "cache", "models": MODELS[:2], "max_rounds": "1"},
    )

    assert response.status_code == 403
    assert not Tournament.objects.exists()


def test_it_ranks_models_on_the_leaderboard_with_a_chart(client, ada, grace, fake_model):
    fake_model.strength = {"gamma-1": 90}
    finished_tournament(user=grace)

    page = client.get(reverse("tournaments:leaderboard"), {"decision_type": "database"})
    html = page.content.decode()

    top = Rating.objects.filter(decision_type="database").order_by("-rating").first()
    assert top.model == "gamma-1"
    assert html.index("gamma-1") < html.index("delta-1")
    assert "<polyline" in html and "Ratings after each match" in html
    # Grace's tournament is not listed for Ada: only aggregates cross users.
    assert "Which database for a 10,000-student" not in html


def test_it_shows_draws_beside_wins_and_says_why_a_finalist_may_have_none(client, ada) -> None:
    Rating.objects.create(
        model="gamma-1", decision_type="database", matches_played=2, matches_won=0, draws=2
    )
    html = client.get(reverse("tournaments:leaderboard"), {"decision_type": "database"})
    row = html.content.decode().split('<th scope="row">gamma-1</th>')[1].split("</tr>")[0]
    # Played 2, won 0, drawn 2: the number a finalist's zero is explained by.
    assert [cell.split(">")[1] for cell in row.split("<td")[2:5]] == ["2</td", "0</td", "2</td"]
    assert "can reach the final with no match won" in html.content.decode()


def test_it_reports_system_health(client, ada, fake_model) -> None:
    finished_tournament(user=ada)

    html = client.get(reverse("tournaments:health")).content.decode()

    assert "Matches that converged" in html
    assert "100.0%" in html  # every scripted match converged
    assert "Cache hit rate" in html


def test_it_survives_a_hostile_decision_type(client, ada) -> None:
    response = client.get(reverse("tournaments:leaderboard"), {"decision_type": HOSTILE})
    assert response.status_code == 200
    assert HOSTILE not in response.content.decode()


def test_it_explains_a_failed_tournament_in_plain_words(client, ada, fake_model) -> None:
    fake_model.failing = set(MODELS[:2])  # both sides of the only match: 529 until exhausted
    debate = finished_tournament(user=ada, models=MODELS[:2])
    assert debate.status == "failed"

    page = client.get(reverse("tournaments:detail", args=[debate.pk])).content.decode()

    assert "The AI service was unavailable" in page
    # The status code as a number of its own: a random token on the page may hold the digits.
    assert not re.search(r"\b529\b", page) and debate.error not in page
    assert reverse("engine:retry", args=[debate.pk]) in page


def test_it_offers_models_by_name_and_shows_the_id_to_instructors(client, ada, settings) -> None:
    settings.TOURNAMENT_MODELS = ["claude-opus-5-5", "claude-sonnet-4-5-20250929"]
    page = client.get(reverse("tournaments:new")).content.decode()
    # A student reads a plain level by price, never a product name (home/spend.py).
    assert "<span>A thorough model</span>" in page and "<span>A quick model</span>" in page
    assert "Claude" not in page
    assert 'value="claude-opus-5-5"' in page  # what the form sends is still the id
    assert "<code>claude-opus-5-5</code>" not in page and ">claude-opus-5-5<" not in page
    ada.is_staff = True
    ada.save()
    staff = client.get(reverse("tournaments:new")).content.decode()
    assert "<span>Claude Opus 5.5</span>" in staff and "<span>Claude Sonnet 4.5</span>" in staff
    assert "<code>claude-sonnet-4-5-20250929</code>" in staff
