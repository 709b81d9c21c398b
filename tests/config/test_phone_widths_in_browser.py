"""Every student page fits a phone: nothing wider than the screen, Sign out within reach.

One browser page visits every page at the narrowest and the widest common
phone width (360 and 430 CSS pixels), with long unbroken words in the
student's text, and collects every element that sticks out past the right
edge. A wide table may scroll sideways inside its own frame (the frame must
fit); the debate graph may not: it is scaled to fit. The admin is out of scope,
but for the class's progress grid, which must fit a 1,280-pixel screen.

A second walk builds the site `make run` builds (the Makefile's own loaders)
and visits, at 390 px, every page a signed-in student reaches from their own
page by following links: every demo (debate, inquiry and its claims, stress
test, tournament and its matches, trial, case file, class), whatever a later
demo adds.
"""

from __future__ import annotations

import json
import re
import threading
from datetime import timedelta
from decimal import Decimal
from html import unescape
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

from coach.models import CoachMessage
from debates.demo import DEMO_FIXTURE, import_debate
from tests.browser import sign_in
from tests.debates.pages_support import ensure_default_personas
from tests.trials import phase_data
from tests.trials.factories import make_argument
from trials.models import Trial, TrialStatus

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
LONG_WORD = "https://example.org/" + "a-very-long-unbroken-address-" * 4

# Elements whose box ends past the window's right edge (zero-size ones aside,
# and the content of a frame that scrolls sideways within the screen), the
# debate graph's drawing, and the document's own scroll width.
OVERFLOW = """() => {
    const width = window.innerWidth;
    const wide = [];
    const scrollsWithinScreen = (element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
            // A frame is an HTML box: an SVG's own clipping is not a scrolling frame.
            if (up instanceof SVGElement) {
                continue;
            }
            if (getComputedStyle(up).overflowX !== 'visible') {
                return up.getBoundingClientRect().right <= width + 1;
            }
        }
        return false;
    };
    for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect();
        const framed = !element.closest('.graph-frame') && scrollsWithinScreen(element);
        if (box.width > 0 && box.height > 0 && box.right > width + 1 && !framed) {
            const name = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '')
                + (typeof element.className === 'string' && element.className
                   ? '.' + element.className.trim().split(/\\s+/).join('.') : '');
            wide.push(name + ' ends at ' + Math.round(box.right));
        }
    }
    return {scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
}"""


# Radio buttons and checkboxes stretched to a line of their own (a form's "input {
# width: 100%}" reaching them): the box floats far from the words it stands for.
STRETCHED = """() => [...document.querySelectorAll('input[type=radio], input[type=checkbox]')]
    .filter((box) => box.getBoundingClientRect().width > 40)
    .map((box) => (box.name || box.id) + ' is ' + Math.round(box.getBoundingClientRect().width) + ' px')"""


def _student_work(user) -> dict[str, int]:
    argument = make_argument(owner=user, title="Bus lanes " + LONG_WORD)
    for n in range(6):
        CoachMessage.objects.create(argument=argument, role="user", text=f"My point {n}")
        CoachMessage.objects.create(argument=argument, role="assistant", text=f"See {LONG_WORD}")
    now = timezone.now()
    trial = Trial.objects.create(
        owner=user,
        argument=argument,
        query="Should cities ban cars? " + LONG_WORD,
        status=TrialStatus.SUSTAINED,
        phase1=phase_data.phase1(),
        phase2=phase_data.phase2(),
        phase3=phase_data.phase3(),
        phase4=phase_data.phase4(),
        input_tokens=1000,
        output_tokens=200,
        cost_usd=Decimal("0.01"),
        started_at=now - timedelta(seconds=3),
        finished_at=now,
    )
    ensure_default_personas()
    debate = import_debate(data=json.loads(DEMO_FIXTURE.read_text("utf-8")), is_demo=False)
    debate.creator = user
    debate.save(update_fields=["creator"])
    return {"argument": argument.pk, "trial": trial.pk, "debate": debate.pk}


def _visit(page, url: str) -> None:
    page.goto(url, wait_until="load")
    if "/replay/" in url:
        page.get_by_role("button", name="Jump to the end").click()
    if url.endswith("/live/"):
        page.locator("[data-field=outcome]").wait_for(state="visible")


@pytest.mark.parametrize("width", [360, 430])
def test_it_fits_every_page_on_a_phone(live_asgi, page, settings, width) -> None:
    settings.SIGNUP_OPEN = True
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    ids = _student_work(user)
    page.set_viewport_size({"width": width, "height": 800})
    base = live_asgi.url
    public = ["/", "/accounts/login/", "/accounts/signup/", "/no-such-page/"]
    own = [
        "/me/",
        "/coach/",
        "/coach/new/",
        f"/coach/{ids['argument']}/",
        f"/coach/{ids['argument']}/toulmin/",
        "/trials/",
        "/trials/ask/",
        f"/trials/{ids['trial']}/",
        "/debates/",
        "/debates/new/",
        "/inquiries/new/",
        "/tournaments/new/",
        f"/debates/{ids['debate']}/",
        f"/debates/{ids['debate']}/live/",
        f"/debates/{ids['debate']}/replay/",
        "/no-such-page/",
    ]

    too_wide = {}
    out_of_reach = []
    stretched = {}
    for path in public:
        _visit(page, base + path)
        if (found := page.evaluate(OVERFLOW))["wide"] or found["scrollWidth"] > width:
            too_wide["(signed out) " + path] = found
    sign_in(page, live_asgi, "ada", PASSWORD)
    for path in own:
        _visit(page, base + path)
        if (found := page.evaluate(OVERFLOW))["wide"] or found["scrollWidth"] > width:
            too_wide[path] = found
        if boxes := page.evaluate(STRETCHED):
            stretched[path] = boxes
        sign_out = page.get_by_role("button", name="Sign out")
        box = sign_out.bounding_box()
        if not (
            sign_out.is_visible() and box and box["x"] >= 0 and box["x"] + box["width"] <= width
        ):
            out_of_reach.append(path)

    assert too_wide == {}
    assert out_of_reach == []
    assert stretched == {}


def test_it_puts_the_chat_before_the_steps_and_draft_on_a_phone(live_asgi, page) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = make_argument(owner=user, complete=False)
    CoachMessage.objects.create(argument=argument, role="assistant", text="What is your claim?")
    sign_in(page, live_asgi, "ada", PASSWORD)

    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    # The page refreshes its panels once after loading; measure what stays.
    page.wait_for_selector("#coach[data-state='ready']")
    chat = page.locator(".chat").bounding_box()
    assert chat["y"] < page.locator("#sidebar").bounding_box()["y"]
    # The composer is reached within about two screens, not after the whole draft.
    assert page.get_by_label("Your message").bounding_box()["y"] < 1600

    # A wide screen keeps the steps and draft on the left of the conversation.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector("#coach[data-state='ready'] #sidebar", state="visible")
    assert page.locator("#sidebar").bounding_box()["x"] < page.locator(".chat").bounding_box()["x"]


# --- every page the demos create, and the class grid on a laptop ---------------------------

MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"
# Links not to follow: other sites' worth of pages, downloads and streams, signing out.
NOT_PAGES = re.compile(
    r"^/(admin|static|i18n|accounts/logout)|\.(json|csv|svg|af|ico|md|txt)$|/events$|/export"
)


def _make_run_loaders() -> list[str]:
    """The manage.py commands `make run` runs before it serves (migrate aside)."""
    recipe = MAKEFILE.read_text("utf-8").split("\nrun:", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"manage\.py (\w+)((?: [\w-]+)*)", recipe)
    return [(name + args) for name, args in commands if name != "migrate"]


def _load_demo_site(settings) -> None:
    """Run the loaders in a thread of their own: Playwright's loop holds this one, and a
    loader that drives its pipeline through asyncio needs a thread without a loop."""
    failures: list[BaseException] = []

    def load() -> None:
        try:
            for command in _make_run_loaders():
                call_command(*command.split(), stdout=StringIO())
        except BaseException as error:  # noqa: BLE001 - re-raised in the test's thread
            failures.append(error)
        finally:
            connection.close()

    settings.DEBUG = True  # seed_demo refuses public passwords otherwise
    try:
        worker = threading.Thread(target=load)
        worker.start()
        worker.join()
    finally:
        settings.DEBUG = False
    if failures:
        raise failures[0]


def _crawl(client: Client, starts: list[str], limit: int = 150) -> list[str]:
    """Same-site pages reached from `starts` by links (GET only), breadth first."""
    seen: list[str] = []
    queue = list(starts)
    while queue and len(seen) < limit:
        url = queue.pop(0)
        if url in seen:
            continue
        response = client.get(url)
        assert response.status_code < 500, url
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        seen.append(url)
        for href in re.findall(r'href="(/[^"#]*)', response.content.decode()):
            href = unescape(href)
            if not NOT_PAGES.search(href.split("?")[0]) and href not in seen:
                queue.append(href)
    return seen


def test_it_fits_every_page_the_demos_create_at_390_and_the_grid_at_1280(
    live_asgi, page, settings
) -> None:
    _load_demo_site(settings)
    User = get_user_model()
    student = User.objects.get(username="student")
    client = Client()
    client.force_login(student)
    pages = _crawl(client, ["/me/", "/debates/", "/tournaments/", "/casefiles/", "/trials/"])
    # The crawl reached every kind of demo, so a page the demos add is walked too.
    for kind in (
        "/debates/",
        "/inquiries/",
        "/stress/",
        "/tournaments/",
        "/trials/",
        "/discussions/",
    ):
        assert any(p.startswith(kind) and p[len(kind) :][:1].isdigit() for p in pages), kind
    assert any("/claims/" in p for p in pages) and any("/matches/" in p for p in pages)
    assert any(p.startswith("/assignments/") for p in pages)

    page.set_viewport_size({"width": 390, "height": 800})
    sign_in(page, live_asgi, "student", "student-demo-pass")
    too_wide = {}
    # In English, then in Spanish (longer words): the language cookie the header's switch sets.
    for language in ("en", "es"):
        page.context.add_cookies(
            [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_asgi.url}]
        )
        for path in pages:
            page.goto(live_asgi.url + path, wait_until="load")
            jump = page.get_by_role("button", name="Jump to the end")
            if language == "en" and jump.count():  # the replay's end, once is enough
                jump.first.click()
            if (found := page.evaluate(OVERFLOW))["wide"] or found["scrollWidth"] > 390:
                too_wide[f"({language}) {path}"] = found
    assert too_wide == {}

    # The instructor lands on their classes; the grid fits 1,280 px and scrolls inside.
    page.context.clear_cookies()
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_in(page, live_asgi, "instructor", "instructor-demo-pass")
    assert page.url == live_asgi.url + "/admin/"
    page.get_by_role("link", name="Car-free city centres").first.click()
    assert "/grid/" in page.url
    found = page.evaluate(OVERFLOW)
    assert found["scrollWidth"] <= 1280 and found["wide"] == []
    frame = page.locator(".grid-scroll")
    feedback_header = page.get_by_role("columnheader", name="feedback")
    # Every column is on the screen or one scroll of the table away, never past the page.
    frame.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    assert feedback_header.bounding_box()["x"] + feedback_header.bounding_box()["width"] <= 1280
    student_cell = page.get_by_role("rowheader").first
    assert student_cell.bounding_box()["x"] >= frame.bounding_box()["x"] - 1
    page.get_by_role("link", name="comment and score").first.click()
    assert "/feedback/" in page.url
