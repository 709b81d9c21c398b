"""Every student page fits a phone: nothing wider than the screen, Sign out within reach.

One browser page visits every page at the narrowest and the widest common
phone width (360 and 430 CSS pixels), with long unbroken words in the
student's text, and collects every element that sticks out past the right
edge. A wide table may scroll sideways inside its own frame (the frame must
fit); the debate graph may not: it is scaled to fit. The admin is out of scope.
"""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
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
        f"/debates/{ids['debate']}/",
        f"/debates/{ids['debate']}/live/",
        f"/debates/{ids['debate']}/replay/",
        "/no-such-page/",
    ]

    too_wide = {}
    out_of_reach = []
    for path in public:
        _visit(page, base + path)
        if (found := page.evaluate(OVERFLOW))["wide"] or found["scrollWidth"] > width:
            too_wide["(signed out) " + path] = found
    sign_in(page, live_asgi, "ada", PASSWORD)
    for path in own:
        _visit(page, base + path)
        if (found := page.evaluate(OVERFLOW))["wide"] or found["scrollWidth"] > width:
            too_wide[path] = found
        sign_out = page.get_by_role("button", name="Sign out")
        box = sign_out.bounding_box()
        if not (
            sign_out.is_visible() and box and box["x"] >= 0 and box["x"] + box["width"] <= width
        ):
            out_of_reach.append(path)

    assert too_wide == {}
    assert out_of_reach == []


def test_it_puts_the_chat_before_the_steps_and_draft_on_a_phone(live_asgi, page) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = make_argument(owner=user, complete=False)
    CoachMessage.objects.create(argument=argument, role="assistant", text="What is your claim?")
    sign_in(page, live_asgi, "ada", PASSWORD)

    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    chat = page.locator(".chat").bounding_box()
    assert chat["y"] < page.locator("#sidebar").bounding_box()["y"]
    # The composer is reached within about two screens, not after the whole draft.
    assert page.get_by_label("Your message").bounding_box()["y"] < 1600

    # A wide screen keeps the steps and draft on the left of the conversation.
    page.set_viewport_size({"width": 1280, "height": 800})
    assert page.locator("#sidebar").bounding_box()["x"] < page.locator(".chat").bounding_box()["x"]
