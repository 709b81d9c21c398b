"""The live bracket in a real browser: it follows a running tournament without reloads."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from engine.models import Debate
from engine.orchestrator import run_debate
from tests.browser import sign_in
from tests.tournaments.conftest import MODELS
from tournaments.services import create_tournament

pytestmark = pytest.mark.browser

PASSWORD = "a-long-enough-pass"


def run_and_close(*, debate_id: int) -> None:
    try:
        run_debate(debate_id=debate_id)
    finally:
        connections.close_all()


def test_it_fills_the_live_bracket_as_matches_are_played(
    live_asgi, page, fake_model, settings
) -> None:
    settings.REDIS_URL = ""
    settings.DEBATE_SSE_POLL_SECONDS = 0.05
    fake_model.strength = {"gamma-1": 90}
    ada = get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    tournament = create_tournament(
        user=ada,
        question="Which database for a 10,000-student course platform?",
        decision_type="database",
        models=MODELS,
        budget_usd=Decimal("2"),
        launch_now=False,
    )

    page.goto(f"{live_asgi.url}/tournaments/{tournament.debate_id}/")
    page.evaluate("window.sameDocument = true")  # gone if the page ever reloads
    assert page.locator(".bracket .match").count() == 0

    runner = threading.Thread(target=run_and_close, kwargs={"debate_id": tournament.debate_id})
    runner.start()
    try:
        page.wait_for_selector(".bracket .match", timeout=30_000)
        page.wait_for_selector(".result .winner-line", timeout=60_000)
    finally:
        runner.join()

    debate = Debate.objects.get(pk=tournament.debate_id)
    assert page.locator(".bracket .match").count() == 3
    assert page.locator(".result .winner-line").inner_text().strip().endswith("gamma-1")
    assert debate.output["finalWinner"] == "gamma-1"
    assert page.evaluate("window.sameDocument") is True
    page.wait_for_function(
        "() => document.querySelector('[data-tournament-live]').dataset.connection === 'closed'"
    )

    # Keyboard: the first match link is reachable with Tab and opens its page, and keeps
    # its focus when the bracket is re-rendered meanwhile (a late refresh once took it).
    page.locator(".bracket .match a").first.focus()
    page.evaluate(
        """() => new Promise((done) => {
          document.body.addEventListener("htmx:afterSettle", done, { once: true });
          const root = document.querySelector("[data-tournament-live]");
          window.htmx.ajax("GET", root.dataset.bracketUrl,
                           { target: "#tournament-live", swap: "outerHTML" });
        })"""
    )
    assert page.evaluate("document.activeElement.closest('.bracket .match') !== null")
    page.keyboard.press("Enter")
    page.wait_for_selector(".transcript")
    assert page.locator("svg.chart polyline").count() == 1

    # A phone: the leaderboard (table, chart) fits 360 px without sideways scrolling.
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(f"{live_asgi.url}/tournaments/?decision_type=database")
    assert page.locator("svg.chart polyline").count() == 4
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360, width
