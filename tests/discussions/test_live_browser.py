"""The live discussion page in headless Chromium: a classmate's objection appears, the
author's argument flips to defeated and the author is told, without a reload."""

from __future__ import annotations

import time
from typing import Any

import pytest

from discussions import live
from discussions.services import create_post, hide_post
from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-enough-pass"


def _wait_for_the_page_to_follow(discussion: Any) -> None:
    deadline = time.monotonic() + 10
    while live.followers(discussion.pk) != 1:
        assert time.monotonic() < deadline, "the page opened no stream"
        time.sleep(0.05)


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
    _wait_for_the_page_to_follow(discussion)

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


def test_it_keeps_what_an_instructor_is_typing_when_the_section_is_read_again(
    live_asgi: Any,
    page: Any,
    discussion: Any,
    student: Any,
    classmate: Any,
    teacher: Any,
    settings: Any,
) -> None:
    # Another post hidden (by a second instructor, or in another tab) makes every open
    # page read the whole section again; the form this one has open, the reason typed in
    # it and the focus stay.
    settings.REDIS_URL = ""
    settings.DISCUSSION_LIVE_POLL_SECONDS = 30  # the poke after the commit must carry it
    teacher.set_password(PASSWORD)
    teacher.save()
    first = create_post(
        discussion=discussion,
        author=student,
        claim="Homework steals play.",
        premises=["Children need play."],
        side="for",
    )
    second = create_post(
        discussion=discussion,
        author=classmate,
        claim="Homework builds habits.",
        premises=["Habits last."],
        side="against",
    )
    sign_in(page, live_asgi, "teacher", PASSWORD)
    page.goto(f"{live_asgi.url}/discussions/{discussion.pk}/")
    _wait_for_the_page_to_follow(discussion)
    post = page.locator(f"#post-{first.pk}")
    post.get_by_text("Hide this post").click()
    reason = post.get_by_label("Why (the author reads this)")
    reason.fill("Off topic, half")
    page.evaluate("document.getElementById('standing').dataset.before = '1'")

    hide_post(post=second, reason="A duplicate.")

    page.wait_for_function("() => !document.getElementById('standing').dataset.before")
    assert page.locator(f"#post-{second.pk}").get_attribute("class").endswith("hidden-post")
    assert post.locator("details.moderate").evaluate("details => details.open") is True
    assert reason.input_value() == "Off topic, half"
    assert page.evaluate("document.activeElement.id") == f"reason-{first.pk}"
