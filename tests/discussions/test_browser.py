"""A class discussion in headless Chromium: three students and their instructor at once.

Each person has a browser context of their own (Ben on a 390-pixel phone), all on
the same discussion page served by the real ASGI app. Ana posts an argument from
expert opinion; Ben, without reloading, sees it arrive and objects to it with one of
its critical questions; Ana's argument flips to defeated on her open page and the
thesis's status with it, and an aria-live line tells her; Cai posts an insult with
markup in it, which every page shows as text; the instructor hides it with a reason,
and Cai's open page shows the reason while the thesis changes again on Ana's. Last,
the instructor scores Ana's part on the rubric and releases it, and Ana reads the
released score.

Nothing here reloads a discussion page to see another person's post: what arrives
comes through the page's own server-sent-events stream (discussions/stream.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from classroom.models import Classroom, Membership, Submission
from classroom.services import make_instructor
from discussions.grading import sync_assignment
from discussions.models import Discussion, Post
from feedback.services import default_rubric

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LIVE = 15_000  # ms: the page's stream brings a change within a second or two
QUESTION = "Do other experts in the field agree, or is this one voice?"
INSULT = "Homework fans are <b>clowns</b>"
REASON = "Argue with the point, not the people."


def _person(browser: Any, live: Any, user: Any, *, width: int = 1280) -> Any:
    """A signed-in browser context of the user's own (a session made for them)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(locale="en-US", viewport={"width": width, "height": 900})
    host = live.url.split("//", 1)[1].split(":")[0]
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie,
                          "domain": host, "path": "/"}])  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _thesis(page: Any) -> Any:
    """The thesis's status as the What stands section says it."""
    return page.get_by_role("region", name="What stands").locator("strong").first


def _post_of(author: Any) -> Post:
    return Post.objects.filter(author=author).latest("id")


def test_it_runs_a_discussion_with_three_students_and_their_instructor(
    live_asgi: Any, chromium_browser: Any
) -> None:
    from playwright.sync_api import expect

    users = get_user_model().objects
    teacher = users.create_user("teacher", first_name="Tess")
    make_instructor(user=teacher)
    ana, ben, cai = (users.create_user(n, first_name=n.title()) for n in ("ana", "ben", "cai"))
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    for student in (ana, ben, cai):
        Membership.objects.create(classroom=room, student=student)
    discussion = Discussion.objects.create(
        classroom=room,
        title="Homework",
        thesis="Homework should be abolished in primary school.",
        created_by=teacher,
    )
    sync_assignment(discussion=discussion, graded=True, author=teacher)
    url = f"{live_asgi.url}/discussions/{discussion.pk}/"

    pages = {
        "ana": _person(chromium_browser, live_asgi, ana),
        "ben": _person(chromium_browser, live_asgi, ben, width=390),
        "cai": _person(chromium_browser, live_asgi, cai),
        "teacher": _person(chromium_browser, live_asgi, teacher),
    }
    try:
        for page in pages.values():
            page.goto(url)
        a, b, c, t = (pages[k] for k in ("ana", "ben", "cai", "teacher"))
        expect(_thesis(a)).to_contain_text("The thesis is open")

        # Ana argues for the thesis from expert opinion.
        a.get_by_role("radio", name="for the thesis").check()
        a.locator("#new-argument").get_by_label("Claim").fill("Homework harms young pupils' sleep")
        a.locator("#new-argument").get_by_label("Premise 1").fill(
            "The national paediatrics society says homework cuts sleep before age 11"
        )
        a.get_by_label("Argument scheme (optional)").select_option("expert_opinion")
        with a.expect_navigation():
            a.get_by_role("button", name="Post my argument").click()
        argument = _post_of(ana)
        expect(a.locator(f"#post-{argument.pk}-head")).to_contain_text("stands")
        expect(_thesis(a)).to_contain_text("The thesis stands")

        # Ben, on his phone, sees it arrive and answers with a critical question.
        expect(b.locator(f"#post-{argument.pk}")).to_contain_text(
            "paediatrics society", timeout=LIVE
        )
        expect(_thesis(b)).to_contain_text("The thesis stands", timeout=LIVE)
        post = b.locator(f"#post-{argument.pk}")
        post.get_by_text("Critical questions to start an objection").click()
        with b.expect_navigation():
            post.get_by_role("link", name=QUESTION).click()
        # The form comes filled from the question: its wording, the part, the type that fits.
        expect(b.get_by_role("textbox", name="Your objection")).to_have_value(
            re.compile("other experts may disagree")
        )
        with b.expect_navigation():
            b.get_by_role("button", name="Post my objection").click()
        objection = _post_of(ben)
        assert (objection.attack_type, objection.question_code) == (
            "undercut",
            "expert.consistency",
        )
        assert b.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider

        # On Ana's open page her argument is defeated now, and the thesis open again.
        expect(a.locator(f"#post-{argument.pk}-head")).to_contain_text("is defeated", timeout=LIVE)
        expect(a.locator("#live-notices")).to_contain_text("Homework harms young pupils")  # told
        expect(_thesis(a)).to_contain_text("The thesis is open", timeout=LIVE)

        # Cai insults the other side; the markup is text on every page.
        c.get_by_role("radio", name="against the thesis").check()
        c.locator("#new-argument").get_by_label("Claim").fill(INSULT)
        c.locator("#new-argument").get_by_label("Premise 1").fill("Everyone knows it")
        with c.expect_navigation():
            c.get_by_role("button", name="Post my argument").click()
        insult = _post_of(cai)
        expect(t.locator(f"#post-{insult.pk}-claim")).to_have_text(INSULT, timeout=LIVE)
        expect(_thesis(t)).to_contain_text("The thesis falls", timeout=LIVE)
        assert t.locator(f"#post-{insult.pk} b").count() == 0

        # The instructor hides it with a reason; Cai reads it, the thesis reopens for Ana.
        hide = t.locator(f"#post-{insult.pk}")
        hide.get_by_text("Hide this post").click()
        hide.get_by_label("Why (the author reads this)").fill(REASON)
        with t.expect_navigation():
            hide.get_by_role("button", name="Hide it").click()
        expect(c.get_by_text(f"Hidden by the instructor: {REASON}")).to_be_visible(timeout=LIVE)
        expect(a.get_by_text("A post hidden by the instructor.")).to_be_visible(timeout=LIVE)
        expect(_thesis(a)).to_contain_text("The thesis is open", timeout=LIVE)
        expect(a.locator(f"#post-{insult.pk}")).not_to_contain_text("clowns")

        # The instructor scores Ana's part and releases it; Ana reads her score.
        submission = Submission.objects.get(assignment=discussion.assignment, student=ana)
        criterion = default_rubric(assignment=discussion.assignment).criteria.first()
        t.goto(f"{live_asgi.url}/admin/feedback/rubric/submission/{submission.pk}/")
        t.get_by_label(criterion.name).select_option("2")
        with t.expect_navigation():
            t.get_by_role("button", name="Save scores").click()
        with t.expect_navigation():
            t.get_by_role("button", name="Release to the student").click()
        expect(t.get_by_text("Released on")).to_be_visible()
        a.goto(f"{live_asgi.url}/feedback/{submission.pk}/")
        expect(a.get_by_text(criterion.name)).to_be_visible()
        expect(a.get_by_text("has not released feedback")).to_have_count(0)
    finally:
        for page in pages.values():
            page.context.close()
