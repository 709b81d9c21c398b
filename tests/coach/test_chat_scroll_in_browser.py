"""The chat box keeps the newest message in view, and leaves a reader who scrolled up alone.

The transcript is a scrolling box: with a long conversation its newest
message sits below the box's bottom unless the page scrolls it into view, on
load, as replies stream in, and after the student sends or confirms.
Offline coach: no API key, no model.
"""

import pytest
from django.contrib.auth import get_user_model

from coach.models import CoachMessage
from coach.services import create_argument
from tests.browser import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"

# True when the bottom of the transcript's last message shows inside the box.
NEWEST_IN_VIEW = """() => {
    const box = document.getElementById('transcript').getBoundingClientRect();
    const last = document.querySelector('#transcript .msg:last-child').getBoundingClientRect();
    return last.bottom <= box.bottom + 1 && last.bottom > box.top;
}"""


def test_it_keeps_the_newest_message_in_view(live_asgi, page, no_anthropic_key) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=user, title="Bikes", language="en")
    for n in range(15):
        CoachMessage.objects.create(argument=argument, role="user", text=f"Old question {n}")
        CoachMessage.objects.create(
            argument=argument, role="assistant", text=f"Old answer {n}.\nOn two lines."
        )
    page.set_viewport_size({"width": 390, "height": 800})
    sign_in(page, live_asgi, "ada", PASSWORD)

    # A reload opens on the latest exchange, not the oldest.
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    transcript = page.locator("#transcript")
    assert transcript.evaluate("box => box.scrollHeight > box.clientHeight + 200")
    assert page.evaluate(NEWEST_IN_VIEW)

    # After a reply: the coach's answer is the newest message, and it shows.
    page.get_by_label("Your message").fill("Cities should build protected bike lanes.")
    page.get_by_role("button", name="Send").click()
    page.wait_for_function(
        "() => document.querySelector('#transcript .msg:last-child')"
        ".matches('.msg-assistant:not(.streaming)')"
    )
    page.wait_for_function(NEWEST_IN_VIEW)
    assert page.locator("#jump-newest").is_hidden()

    # After Accept, even from higher up the box: the coach's next question shows.
    page.get_by_label("Your message").fill("yes")
    page.get_by_role("button", name="Send").click()
    page.locator("#proposal").get_by_role("button", name="Accept").wait_for()
    coach_messages = page.locator("#transcript .msg-assistant").count()
    transcript.evaluate("box => { box.scrollTop = 0; }")
    page.locator("#proposal").get_by_role("button", name="Accept").click()
    page.wait_for_function(
        """count => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length
            > count""",
        arg=coach_messages,
    )
    page.wait_for_function(NEWEST_IN_VIEW)

    # A student who scrolled up to read is not pulled down by new words...
    transcript.evaluate("box => { box.scrollTop = 0; }")
    page.wait_for_function("() => document.getElementById('transcript').scrollTop === 0")
    page.wait_for_timeout(100)  # the scroll event is delivered on the next frame
    transcript.evaluate(
        """box => {
            const item = document.createElement('li');
            item.className = 'msg msg-assistant';
            item.textContent = 'A late arrival';
            box.append(item);
        }"""
    )
    assert transcript.evaluate("box => box.scrollTop") == 0
    # ...and is offered the way back to them.
    jump = page.get_by_role("button", name="New messages below")
    jump.click()
    page.wait_for_function(NEWEST_IN_VIEW)
    assert jump.is_hidden()
