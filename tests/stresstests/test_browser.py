"""In a real browser: stress-test a finished argument, defend one attack, see the status change,
then replay it.

The run and the defence go through the real engine in a thread, the real SDK
and the fake Anthropic server; the page polls its status partial (htmx) and
must change without a reload.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.models import Argument
from engine.models import Persona
from tests.browser import sign_in
from tests.fakes.stress_model import FakeStressModel
from tests.stresstests.conftest import ELEMENTS, SCRIPT

pytestmark = pytest.mark.browser

PASSWORD = "a-long-enough-pass"
ATTACKERS = ("The Skeptic", "The Farmer")


@pytest.fixture
def student_argument(live_asgi, page, fake_anthropic):
    Persona.objects.update(active=False)
    for name in ATTACKERS:
        Persona.objects.update_or_create(
            name=name, defaults={"worldview": f"{name} argues.", "active": True}
        )
    fake_anthropic.responder = FakeStressModel(
        attacks={name: SCRIPT[name] for name in ATTACKERS}, conceded_marker="narrow"
    )
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    return Argument.objects.create(
        owner=user, title="Bike lanes", completed_at=timezone.now(), **ELEMENTS
    )


def test_it_defends_an_attack_and_the_status_changes_without_a_reload(
    live_asgi, page, student_argument
) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_asgi.url}/coach/{student_argument.pk}/")
    page.get_by_role("link", name="Stress-test it").click()
    page.get_by_role("button", name="Stress-test it").click()

    status = page.locator("#stress-status")
    page.wait_for_selector("#stress-status[data-running=false]", timeout=30_000)
    assert status.get_attribute("data-status") == "defeated"
    assert "Your claim is defeated as it stands" in status.inner_text()
    assert "Already answered by your rebuttal" in status.inner_text()

    page.evaluate("window.sameDocument = true")  # gone if the page ever reloads
    answer = page.get_by_label("Answer this objection in your own words")
    assert answer.count() == 1  # the conceded one needs no answer
    answer.fill("Deaths are exactly what safety means on a street.")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the Defend button, by keyboard

    page.wait_for_selector("#stress-status[data-status=grounded_in]", timeout=30_000)
    assert "Your claim stands against every objection raised" in status.inner_text()
    assert "Accepted" in status.inner_text()
    assert page.evaluate("window.sameDocument") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1

    page.get_by_role("link", name="Replay every step").click()
    page.get_by_role("button", name="Show everything").click()
    replay = page.locator("#replay")
    assert "Deaths are exactly what safety means on a street." in replay.inner_text()
    assert "Your claim now: Your claim stands against every objection raised" in replay.inner_text()
