"""In a real browser: a question put on trial, its phases appearing as the background run saves them."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.fakes.anthropic_server import Reply
from tests.trials import phase_data

pytestmark = pytest.mark.browser


def _signed_in(page, live, user) -> None:
    """A session cookie from Django's test client: the login form is tested elsewhere."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live.url}])


# Long enough per call that the page, polling every second, sees the run in between.
CALL_MS = 1000


def test_the_page_shows_each_phase_as_it_completes(live_asgi, page, fake_anthropic, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker: the run is a thread of the server
    fake_anthropic.enqueue(
        *(
            Reply.json(output, latency_ms=CALL_MS)
            for output in (
                phase_data.phase1(),
                phase_data.phase2(),
                phase_data.phase3(),
                phase_data.phase4(),
            )
        )
    )
    _signed_in(page, live_asgi, get_user_model().objects.create_user("ada"))

    page.goto(f"{live_asgi.url}/trials/ask/")
    page.get_by_label("Your question or claim").fill("Should cities replace car lanes?")
    page.get_by_role("button", name="Start the trial").click()

    claim = page.locator(".box.claim .statement")
    claim.wait_for()
    # The claim is on the page while later phases are still being weighed.
    assert claim.inner_text() == phase_data.CLAIM
    assert page.locator("#phases").get_attribute("data-status") == "running"

    verdict = page.locator(".verdict .final")
    verdict.wait_for()
    assert verdict.inner_text() == phase_data.phase4()["verdict"]["final_statement"]
    assert page.locator("#phases").get_attribute("data-status") == "sustained"
    assert page.locator("#phases").get_attribute("hx-trigger") is None  # polling stopped
    assert len(fake_anthropic.message_requests) == 4
