"""The classroom end to end in headless Chromium: the instructor sets a hints-only
assignment, a student joins and works a turn with the AI coach (the fake model
proposes text, the server strips it), the instructor's grid shows the work, and the
instructor's comment on the warrant and score reach the student once released."""

import os

import pytest
from django.contrib.auth import get_user_model

from classroom.models import Assignment, Classroom
from classroom.services import make_instructor
from tests.browser import sign_in
from tests.fakes.anthropic_wire import Reply

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
# A folder to save a picture of the analytics page into, when a person wants to look.
SCREENSHOTS = os.environ.get("ARGUE_SCREENSHOTS", "")
CLAIM = "City centres should be closed to private cars."


def test_it_runs_a_hints_only_assignment_from_class_to_grid(
    live_asgi, page, fake_anthropic
) -> None:
    users = get_user_model().objects
    make_instructor(user=users.create_user("teacher", password=PASSWORD))
    users.create_user("ana", password=PASSWORD)
    live = live_asgi

    # The instructor makes a class and a hints-only assignment in the admin.
    sign_in(page, live, "teacher", PASSWORD)
    page.goto(f"{live.url}/admin/classroom/classroom/add/")
    page.locator("#id_name").fill("Rhetoric 101")
    page.locator("input[name=_save]").click()
    classroom = Classroom.objects.get(name="Rhetoric 101")
    page.goto(f"{live.url}/admin/classroom/assignment/add/")
    page.locator("#id_classroom").select_option(str(classroom.pk))
    page.locator("#id_title").fill("Car-free centres")
    page.locator("#id_prompt").fill("Should city centres be car-free?")
    page.locator("#id_coach_policy").select_option("hints_only")
    page.locator("input[name=_save]").click()
    assignment = Assignment.objects.get(title="Car-free centres")
    assert assignment.coach_policy == "hints_only" and assignment.created_by.username == "teacher"
    grid_url = f"{live.url}/admin/classroom/assignment/{assignment.pk}/grid/"

    # The student joins with the code and starts the argument.
    page.context.clear_cookies()
    sign_in(page, live, "ana", PASSWORD)
    page.get_by_label("Class code").fill(classroom.join_code.lower())
    page.get_by_role("button", name="Join a class").click()
    page.get_by_role("link", name="Car-free centres").click()
    fake_anthropic.enqueue(
        Reply.json({"assistantText": "What is your position, in one sentence?", "step": "claim"}),
        Reply.json(
            {
                "assistantText": "Clear. Which facts support it?",
                "step": "claim",
                "confidence": 0.95,
                "proposedUpdate": {"field": "claim", "value": CLAIM, "rationale": "tighter"},
            }
        ),
    )
    page.get_by_role("button", name="Start my argument").click()
    assert "never writes text for you" in page.locator("#policy").inner_text()
    page.wait_for_selector("#transcript .msg-assistant:not(.streaming)")
    page.get_by_label("Your message").fill("Cars out of the centre")
    page.get_by_label("Your message").press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length === 2"
    )
    assert page.locator("#proposal").is_hidden()
    assert page.locator(".proposal-value").count() == 0
    assert len(fake_anthropic.message_requests) == 2

    # The student types the claim; the instructor's grid says who wrote it. (The page
    # refreshes its draft after a turn: let that settle before opening an editor.)
    page.wait_for_load_state("networkidle")
    page.get_by_text("Write the claim yourself").click()
    page.locator("#typed-claim").fill(CLAIM)
    page.locator("form.typed-field[data-field=claim] button").click()
    page.wait_for_function(
        "text => document.querySelector('.draft').textContent.includes(text)", arg=CLAIM
    )
    page.context.clear_cookies()
    sign_in(page, live, "teacher", PASSWORD)
    page.goto(grid_url)
    row = page.locator("table.progress-grid tbody tr", has_text="ana")
    assert "typed by the student" in row.inner_text()
    assert "in progress" in row.locator("td").first.inner_text()

    # The class analytics, from the grid and on a phone: the two coach turns on the
    # claim, and the guard that stripped the proposal, drawn and in the tables.
    page.get_by_role("link", name="Analytics").click()
    page.set_viewport_size({"width": 390, "height": 844})
    turns = page.locator("#fig-turns tbody tr", has_text="Claim")
    assert turns.locator("td").first.inner_text() == "2"
    guards = page.locator("#fig-guards tbody tr", has_text="removed a proposal (hints only)")
    assert guards.locator("td").inner_text() == "1"
    assert page.locator("svg.bars").count() == 6
    svg_width = page.locator("#fig-guards svg").evaluate("e => e.getBoundingClientRect().width")
    assert 0 < svg_width <= 390
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/analytics-phone.png", full_page=True)
        for key in ("guards", "provenance"):
            page.locator(f"#fig-{key}").screenshot(path=f"{SCREENSHOTS}/analytics-{key}.png")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.go_back()

    # The instructor comments on the warrant, scores and releases, from the grid.
    row.get_by_role("link", name="comment and score").click()
    page.locator("#id_element").select_option("warrant")
    page.locator("#id_text").fill("Say why the evidence supports the claim.")
    page.get_by_role("button", name="Add comment").click()
    page.wait_for_selector("#el-warrant .feedback-comment")
    first = page.locator("select[id^=criterion-]").first
    first.select_option(index=3)  # "Adequate (2)": index 0 is "not scored"
    page.get_by_role("button", name="Save scores").click()
    page.wait_for_selector("caption:has-text('Total: 2 of')")
    page.get_by_role("button", name="Release to the student").click()
    page.wait_for_selector("text=Released on")

    # The student sees the comment on the warrant and the score, from the assignment page.
    page.context.clear_cookies()
    sign_in(page, live, "ana", PASSWORD)
    page.goto(f"{live.url}/assignments/{assignment.pk}/")
    page.get_by_role("link", name="Feedback and grade").click()
    assert "Say why the evidence supports the claim." in page.locator("#el-warrant").inner_text()
    assert "Total: 2 of" in page.locator("caption").inner_text()
