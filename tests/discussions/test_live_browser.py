"""The live discussion page in headless Chromium: a classmate's objection appears, the
author's argument flips to defeated and the author is told, without a reload."""

from __future__ import annotations

import time
from typing import Any

import pytest

from discussions import live
from discussions.services import create_post
from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-pass"


def test_it_shows_an_objection_and_a_status_flip_live_and_tells_the_author(
    live_asgi: Any, page: Any, discussion: Any, student: Any, classmate: Any, settings: Any
) -> None:
    settings.REDIS_URL = ""
    settings.DISCUSSION_LIVE_POLL_SECONDS = 30  # the poke after the commit must carry it
    student.set_password(PASSWORD)
    student.save()
    argument = create_post(
        discussion=discussion,
        author=student,
        claim="Homework steals play time.",
        premises=["Children need play."],
        side="for",
    )
    sign_in(page, live_asgi, "ana", PASSWORD)
    page.goto(f"{live_asgi.url}/discussions/{discussion.pk}/")
    head = page.locator(f"#post-{argument.pk}-head")
    assert head.locator(".badge.in").inner_text() == "stands"
    page.evaluate("window.stillTheSamePage = true")
    deadline = time.monotonic() + 10
    while live.followers(discussion.pk) != 1:
        assert time.monotonic() < deadline, "the page opened no stream"
        time.sleep(0.05)

    objection = create_post(
        discussion=discussion,
        author=classmate,
        claim="<i>Play</i> is not lost",
        premises=["Homework takes twenty minutes."],
        target=argument,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )

    page.locator(f"#post-{objection.pk}").wait_for()
    assert page.locator(f"#post-{objection.pk}-claim").inner_text() == "<i>Play</i> is not lost"
    assert head.locator(".badge.out").inner_text() == "is defeated"
    notices = page.locator("#live-notices")
    assert notices.get_attribute("aria-live") == "polite"
    assert "Your argument “Homework steals play time.” is now defeated" in notices.inner_text()
    assert page.evaluate("window.stillTheSamePage") is True
