"""The main pages break none of the Content-Security-Policy's rules in a real browser.

The policy (config/settings.py) allows scripts, styles and connections from
the site only: an inline <script>, a style="" attribute, an on* handler, the
<style> htmx would add, or a call to eval anywhere on these pages would be
refused by Chromium, which reports it on the console and as a
`securitypolicyviolation` event. The test collects both while it takes each
page through the work it exists for (a coach turn, a trial's phases arriving,
a debate's replay and live view, the instructor's admin).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from coach.models import Argument
from tests.browser import sign_in
from tests.debates.pages_support import ensure_default_personas, finished_debate
from tests.fakes.anthropic_wire import Reply
from tests.trials import phase_data
from trials.models import Trial

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
# Runs in every document before its own scripts, so no violation goes unseen.
LISTEN = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


class Violations:
    def __init__(self, page) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(LISTEN)
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(f"{self.page.url}: {message.text}")

    def check(self) -> None:
        events = self.page.evaluate("window.__cspViolations || []")
        assert (self.console, events) == ([], []), self.page.url


def test_it_breaks_no_content_security_rule_on_the_main_pages(
    live_asgi, page, fake_anthropic, settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # trials run in a thread of the server
    ensure_default_personas()
    ada = get_user_model().objects.create_user("ada", password=PASSWORD)
    get_user_model().objects.create_superuser("ines", password=PASSWORD)
    debate = finished_debate(fake_anthropic, creator=ada, in_thread=True)
    assert debate.is_finished
    fake_anthropic.responder = None
    violations = Violations(page)

    settings.SIGNUP_OPEN = True
    for path in ("/", "/accounts/signup/", "/no-such-page/"):
        page.goto(f"{live_asgi.url}{path}")
        violations.check()
    sign_in(page, live_asgi, "ada", PASSWORD)
    violations.check()
    for path in ("/me/", "/coach/", "/trials/", "/no-such-page/"):
        page.goto(f"{live_asgi.url}{path}")
        violations.check()

    # The coach: a page with its script, a streamed turn, htmx swaps.
    fake_anthropic.enqueue(
        Reply.json({"assistantText": "What would you like to argue about?", "step": "claim"}),
        Reply.json(
            {
                "assistantText": "A clear position. Here is a tighter wording.",
                "step": "claim",
                "confidence": 0.9,
                "proposedUpdate": {
                    "field": "claim",
                    "value": "City centres should be closed to private cars.",
                    "rationale": "It names what changes and where.",
                },
            }
        ),
    )
    page.goto(f"{live_asgi.url}/coach/new/")
    page.get_by_label("Title").fill("Cars")
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#transcript .msg-assistant:not(.streaming)")
    page.get_by_label("Your message").fill("Cities should close their centres to cars.")
    page.get_by_role("button", name="Send").click()
    page.wait_for_selector("#proposal button", state="visible")
    violations.check()

    # A trial: the page polls with htmx and swaps each phase in.
    fake_anthropic.enqueue(
        *(
            Reply.json(output)
            for output in (
                phase_data.phase1(),
                phase_data.phase2(),
                phase_data.phase3(),
                phase_data.phase4(),
            )
        )
    )
    page.goto(f"{live_asgi.url}/trials/ask/")
    page.get_by_label("Your question or claim").fill("Should cities replace car lanes?")
    page.get_by_role("button", name="Start the trial").click()
    page.locator(".verdict .final").wait_for()
    violations.check()

    # Debates: the history, the form's live estimate, the result, replay and live.
    page.goto(f"{live_asgi.url}/debates/")
    page.goto(f"{live_asgi.url}/debates/new/")
    page.locator("#new-debate-form input[type=number]").first.fill("4")
    page.wait_for_load_state("networkidle")
    violations.check()
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/")
    violations.check()
    openings = list(debate.arguments.filter(round=0).order_by("id").values_list("key", "claim"))
    assert openings
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/replay/")
    page.get_by_role("button", name="Jump to the end").click()
    # The opening arguments' words are on the page, not only their number.
    shown = page.locator("[data-field=openings] .opening")
    assert [
        (i.locator(".arg-key").inner_text(), i.locator(".claim").inner_text()) for i in shown.all()
    ] == openings
    violations.check()
    page.goto(f"{live_asgi.url}/debates/{debate.pk}/live/")
    page.wait_for_selector("[data-field=outcome]:not([hidden])")
    assert (
        page.locator("[data-field=openings] .opening .claim").first.inner_text() == openings[0][1]
    )
    violations.check()

    # The instructor's admin, with its own scripts and styles.
    page.context.clear_cookies()
    sign_in(page, live_asgi, "ines", PASSWORD)
    argument = Argument.objects.get(title="Cars")
    trial = Trial.objects.get()
    for path in (
        "/admin/",
        "/admin/engine/debate/",
        f"/admin/engine/debate/{debate.pk}/change/",
        # Read-only fields with preformatted text, guard lists and transcripts.
        f"/admin/coach/argument/{argument.pk}/change/",
        f"/admin/trials/trial/{trial.pk}/change/",
    ):
        response = page.goto(f"{live_asgi.url}{path}")
        assert response.status == 200, path
        violations.check()
    # The admin's own stylesheet carries what those fields once said in style="".
    assert (
        page.locator("pre.argue-pre").first.evaluate("node => getComputedStyle(node).whiteSpace")
        == "pre-wrap"
    )

    # The newer rooms, from their demos: the class's grid and analytics (bar charts),
    # a stress test and its replay, a tournament and a match (line chart), an inquiry's
    # result and replay.
    from io import StringIO

    from django.core.management import call_command

    from classroom.models import Classroom
    from engine.models import Debate

    call_command("load_demo_class", instructor="ines", student="ada", stdout=StringIO())
    call_command("load_demo_stress_test", stdout=StringIO())
    call_command("load_demo_tournament", stdout=StringIO())
    room = Classroom.objects.get(name__startswith="Demo")
    assignment = room.assignments.get()
    stress = Debate.objects.get(format="stress", is_demo=True).stress_test
    tournament = Debate.objects.get(format="tournament", is_demo=True)
    match = tournament.tournament.matches.first()
    for path in (
        f"/admin/classroom/assignment/{assignment.pk}/grid/",
        f"/admin/classroom/assignment/{assignment.pk}/analytics/",
        f"/admin/classroom/classroom/{room.pk}/analytics/",
        f"/stress/{stress.pk}/",
        f"/stress/{stress.pk}/replay/",
        f"/tournaments/{tournament.pk}/",
        f"/tournaments/{tournament.pk}/matches/{match.pk}/",
        "/tournaments/",
    ):
        response = page.goto(f"{live_asgi.url}{path}")
        assert response.status == 200, path
        violations.check()
        if path.endswith("/analytics/"):
            assert page.locator("svg.bars rect.part-0").count() > 0, path
