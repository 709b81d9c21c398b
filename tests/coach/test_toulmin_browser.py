"""The argument's diagram page in headless Chromium: a phone's width, paper, and the CSP."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from coach.services import create_argument
from coach.steps import STEPS
from tests.browser import sign_in
from tests.config.test_csp_in_browser import Violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
TEXTS = {
    "claim": "Cities should ban private cars from their centres.",
    "grounds": "In Madrid, nitrogen dioxide fell 30% in the year after cars were banned in 2018.",
    "warrant": "If banning cars cuts pollution, cities that care about health should ban them.",
    "grounds_backing": "Madrid's air quality agency published the measurements in 2019.",
    "warrant_backing": "Public health research links traffic pollution to asthma and heart disease.",
    "qualifier": "In most large cities",
    "rebuttal": "Unless public transit cannot carry the people who drove before.",
}


def test_it_shows_the_diagram_on_a_phone_and_on_paper(live_asgi, page) -> None:
    ada = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=ada, title="Car-free centres", language="en")
    for step in STEPS:
        setattr(argument, step.field, TEXTS[step.field])
    argument.current_step, argument.completed_at = "rebuttal", timezone.now()
    argument.save()
    violations = Violations(page)
    sign_in(page, live_asgi, "ada", PASSWORD)

    page.set_viewport_size({"width": 1200, "height": 900})
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    page.get_by_role("link", name="See it assembled as a diagram").click()
    # Measure only once the stylesheet is in: a layout forced before it loads is the
    # unstyled one (every box at the left edge), which is what a loaded CI once saw.
    page.wait_for_url("**/toulmin/")
    page.wait_for_load_state("load")
    grounds, claim = page.locator(".t-grounds"), page.locator(".t-claim")
    # Wide: grounds on the left of the claim, the warrant under them.
    assert grounds.bounding_box()["x"] < claim.bounding_box()["x"]
    assert page.locator(".t-warrant").bounding_box()["y"] > claim.bounding_box()["y"]
    violations.check()

    page.set_viewport_size({"width": 360, "height": 800})
    page.reload(wait_until="load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    # Narrow: one column in reading order, grounds first, rebuttal last.
    boxes = [
        page.locator(f".t-{name}").bounding_box()["y"] for name in ("grounds", "claim", "rebuttal")
    ]
    assert boxes == sorted(boxes)

    page.emulate_media(media="print")
    assert page.locator(".t-claim").is_visible()
    assert not page.locator(".toulmin-exports").is_visible()
    assert not page.locator(".site-header").is_visible()
    violations.check()
