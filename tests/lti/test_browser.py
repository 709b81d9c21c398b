"""A launch inside the LMS's iframe, in Chromium: the test platform's course page frames the tool.

The course page is served as http://localhost:<port> and the tool as
http://127.0.0.1:<port>: two sites, so the tool's cookies are third-party in
the iframe, as in a real LMS. Playwright's Chromium blocks unpartitioned
third-party cookies, so this fails unless the launch's cookies are
SameSite=None; Secure; Partitioned, and unless the launch and the pages after
it let the platform frame them (CSP frame-ancestors, no X-Frame-Options).
"""

from __future__ import annotations

import pytest

from classroom.models import Assignment
from tests.lti.conftest import INSTRUCTOR

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _course_page(platform, sub: str) -> str:
    return f"http://localhost:{platform.server.server_port}/course?sub={sub}"


def test_it_completes_a_launch_inside_the_lms_iframe(
    live_asgi, page, chromium_browser, registration, platform, no_anthropic_key
) -> None:
    # The LMS's pages (and its authorization endpoint) are on "localhost"; its issuer
    # stays the 127.0.0.1 address, as Canvas's issuer is not the school's host either.
    registration.auth_url = f"http://localhost:{platform.server.server_port}/auth"
    registration.save()
    platform.tool_login_url = f"{live_asgi.url}/lti/login/"
    platform.roles = {"teacher-1": INSTRUCTOR}

    # The instructor's first launch: pick the assignment in the iframe (a form with CSRF).
    page.goto(_course_page(platform, "teacher-1"))
    tool = page.frame_locator("#tool")
    tool.get_by_role("heading", name="Which assignment does this link open?").wait_for()
    tool.get_by_label("Title of a new assignment").fill("School uniforms")
    tool.get_by_label("Prompt of a new assignment").fill("Should schools require uniforms?")
    tool.get_by_role("button", name="Save and open the assignment").click()
    tool.locator("#content").get_by_text("School uniforms").first.wait_for()
    assert Assignment.objects.filter(title="School uniforms").exists()

    # A student's launch opens their argument in the iframe; the coach answers there.
    student = chromium_browser.new_context(locale="en-US").new_page()
    student.set_default_timeout(15_000)
    student.goto(_course_page(platform, "student-1"))
    coach = student.frame_locator("#tool")
    coach.get_by_label("Your message").fill("Schools should not require uniforms.")
    coach.get_by_role("button", name="Send").click()
    coach.locator("#transcript .msg-user").get_by_text(
        "Schools should not require uniforms."
    ).wait_for()
    # The offline coach's answer to it: the second reply, after the step's opening.
    coach.locator("#transcript .msg-assistant:not(.streaming)").nth(1).wait_for()
    student.context.close()

    # The same launch in a window of its own (what the Canvas JSON asks for, and Safari
    # needs): the cookies made for the iframe work there too.
    window = chromium_browser.new_context(locale="en-US").new_page()
    window.set_default_timeout(15_000)
    window.goto(platform.login_url("student-2"))
    window.get_by_label("Your message").wait_for()
    assert "/coach/" in window.url
    window.context.close()
