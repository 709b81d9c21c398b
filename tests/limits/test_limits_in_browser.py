"""A rate-limited coach message in headless Chromium: the page says when, and keeps the words."""

import pytest
from django.contrib.auth import get_user_model

from coach.models import CoachMessage
from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"


def test_it_shows_the_limit_and_keeps_the_typed_message(
    live_asgi, page, no_anthropic_key, settings
) -> None:
    # The page's own opening turn uses the only turn of the minute.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "coach_turn": (1, 60)}
    get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/new/")
    page.get_by_label("Title").fill("Trams")
    page.locator("#id_language").select_option("en")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#transcript .msg-assistant:not(.streaming)")

    box = page.get_by_label("Your message")
    box.fill("Trams should be free for students.")
    box.press("Enter")

    error = page.locator("#coach-error .error-text")
    error.wait_for(state="visible")
    assert "the limit for messages to the coach: 1 per minute" in error.text_content()
    assert "You can go on in " in error.text_content()
    assert box.input_value() == "Trams should be free for students."
    assert not CoachMessage.objects.filter(text__startswith="Trams should").exists()
