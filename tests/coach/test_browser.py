"""The coaching page in headless Chromium, against the real ASGI app under uvicorn.

The AI path talks to the fake Anthropic server through the real SDK; its
replies are streamed slowly enough (a delay between SSE events) that the page
can be caught showing part of a reply. The offline path needs no server.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from classroom.services import make_instructor
from coach.models import Argument, CoachMessage
from coach.services import create_argument
from tests.browser import sign_in
from tests.classroom.support import work_for_an_assignment
from tests.fakes.anthropic_wire import Reply

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "a-long-enough-pass"
OPENING = (
    "Welcome! What would you like to argue about? Say it in one sentence, as you would to a friend."
)
PROPOSED = "City centres should be closed to private cars."
RATIONALE = "It names what changes and where, so it can be argued for."
GROUNDS_OPENING = "Now the grounds: which facts make you believe this?"


def slow(obj: dict) -> Reply:
    # Eight characters per SSE event, 60 ms apart: a reply takes a second or two.
    return Reply.json(obj, chunk_chars=8, chunk_delay_ms=60)


def start_argument(page, live, title: str) -> None:
    page.goto(f"{live.url}/coach/new/")
    page.get_by_label("Title").fill(title)
    # The header's language switch is labelled "Language" too: pick the form's field.
    page.locator("#id_language").select_option("en")
    page.get_by_role("button", name="Start").click()


def last_coach_text(page) -> str:
    return page.locator("#transcript .msg-assistant .text").last.text_content()


def current_step(page) -> str:
    return page.locator("#rail li[aria-current='step']").get_attribute("data-step")


def test_it_streams_the_ai_coach_and_advances_on_confirm(live_asgi, page, fake_anthropic) -> None:
    get_user_model().objects.create_user("ada", password=PASSWORD)
    fake_anthropic.enqueue(
        slow({"assistantText": OPENING, "step": "claim"}),
        slow(
            {
                "assistantText": "That is a clear position. Here is a tighter wording.",
                "step": "claim",
                "confidence": 0.9,
                "proposedUpdate": {"field": "claim", "value": PROPOSED, "rationale": RATIONALE},
            }
        ),
        slow({"assistantText": GROUNDS_OPENING, "step": "grounds"}),
    )
    sign_in(page, live_asgi, "ada", PASSWORD)
    start_argument(page, live_asgi, "Cars in the city")

    # The page opens the step by itself; the reply appears while it streams.
    page.wait_for_function(
        """full => {
            const bubble = document.querySelector('#transcript .msg-assistant.streaming .text');
            return bubble && bubble.textContent.length > 0 && bubble.textContent.length < full.length;
        }""",
        arg=OPENING,
    )
    assert page.locator("#transcript").get_attribute("aria-live") == "polite"
    page.wait_for_selector("#transcript .msg-assistant:not(.streaming)")
    assert last_coach_text(page) == OPENING
    assert page.locator(".coach-kind").inner_text().startswith("AI coach")
    assert current_step(page) == "claim"

    # Markup typed by the student is shown as text, never parsed.
    page.get_by_label("Your message").fill("Cars should go <b>now</b>")
    page.get_by_label("Your message").press("Enter")
    assert (
        page.locator("#transcript .msg-user .text").last.text_content()
        == "Cars should go <b>now</b>"
    )
    assert page.locator("#transcript b").count() == 0

    proposal = page.locator("#proposal")
    page.wait_for_function(
        "text => document.querySelector('#proposal .proposal-value')?.textContent === text",
        arg=PROPOSED,
    )
    assert RATIONALE in proposal.inner_text()
    assert page.get_by_label("Your message").input_value() == ""

    proposal.get_by_role("button", name="Accept").click()
    page.wait_for_function("() => document.querySelector('#rail').dataset.step === 'grounds'")
    assert page.locator("#rail li[data-step='claim']").get_attribute("class") == "step done"
    assert current_step(page) == "grounds"
    assert page.locator("#proposal").is_hidden()
    assert PROPOSED in page.locator(".draft").inner_text()

    # After the confirmation the page asks the coach to open the next step.
    page.wait_for_function(
        "text => [...document.querySelectorAll('#transcript .msg-assistant:not(.streaming) .text')]"
        ".some(node => node.textContent === text)",
        arg=GROUNDS_OPENING,
    )
    argument = Argument.objects.get(title="Cars in the city")
    assert (argument.claim, argument.current_step) == (PROPOSED, "grounds")
    assert len(fake_anthropic.message_requests) == 3


def test_it_keeps_the_message_and_retries_after_a_broken_stream(
    live_asgi, page, fake_anthropic
) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=user, title="Homework", language="en")
    CoachMessage.objects.create(argument=argument, role="assistant", text="Hello.", step="claim")
    fake_anthropic.enqueue(
        Reply.stream_error({"assistantText": "Homework should be optional because"}),
        Reply.json({"assistantText": "Optional homework: tell me more.", "step": "claim"}),
    )
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")

    page.get_by_label("Your message").fill("Homework should be optional.")
    page.get_by_role("button", name="Send").click()
    error = page.locator("#coach-error")
    error.wait_for()
    assert "broke off" in error.inner_text()
    assert page.get_by_label("Your message").input_value() == "Homework should be optional."
    assert page.locator("#transcript .msg-user.failed").count() == 1
    assert page.locator("#transcript .msg-assistant").count() == 1  # the partial one is gone

    error.get_by_role("button", name="Retry").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('#transcript .msg-assistant .text')]"
        ".some(node => node.textContent === 'Optional homework: tell me more.')"
    )
    assert error.is_hidden()
    assert page.locator("#transcript .msg-user.failed").count() == 0
    assert page.get_by_label("Your message").input_value() == ""

    # The retry reused the stored message: after a reload the words show once.
    page.reload()
    assert page.locator("#transcript .msg .text").all_text_contents() == [
        "Hello.",
        "Homework should be optional.",
        "Optional homework: tell me more.",
    ]


def test_it_coaches_offline_without_an_api_key(live_asgi, page, no_anthropic_key) -> None:
    get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    start_argument(page, live_asgi, "Bikes")
    page.wait_for_selector("#transcript .msg-assistant:not(.streaming)")
    assert page.locator(".coach-kind").inner_text().startswith("Offline coach")

    page.get_by_label("Your message").fill(
        "Cities should build protected bike lanes on main roads."
    )
    page.get_by_role("button", name="Send").click()
    page.wait_for_function(
        "() => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length === 2"
    )
    # Good words are put up at once: no "yes" is needed before Accept.
    proposal = page.locator("#proposal")
    proposal.wait_for(state="visible")
    assert "Accept" in last_coach_text(page)

    # Edit the proposal before confirming it: the student's version is saved.
    proposal.get_by_role("button", name="Edit").click()
    editor = page.get_by_label("Your version")
    assert editor.evaluate("node => node === document.activeElement")
    editor.fill("Cities should build protected bike lanes.")
    proposal.get_by_role("button", name="Accept").click()
    page.wait_for_function("() => document.querySelector('#rail').dataset.step === 'grounds'")
    assert current_step(page) == "grounds"
    claim = page.locator(".draft-item").first
    assert "Cities should build protected bike lanes." in claim.inner_text()
    assert "edited" in claim.locator(".badge").inner_text()


def test_it_saves_text_the_student_types_into_the_draft(live_asgi, page, no_anthropic_key) -> None:
    get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    start_argument(page, live_asgi, "Bikes")
    # The opening turn ends with a refresh of the draft: open an editor after it.
    page.wait_for_selector("#coach[data-state=ready]")

    page.get_by_text("Write the Claim yourself").click()
    page.get_by_label("Claim", exact=True).fill("Bike lanes save lives.")
    page.locator("form.typed-field").get_by_role("button", name="Save").click()
    page.wait_for_function(
        "() => document.querySelector('.draft-item .value').textContent === 'Bike lanes save lives.'"
    )
    assert page.locator(".draft-item").first.locator(".badge").inner_text() == "typed"
    assert page.locator("#coach-status").inner_text() == "Saved."
    assert Argument.objects.get(title="Bikes").claim == "Bike lanes save lives."


def test_it_rejects_a_proposal_and_keeps_the_draft(live_asgi, page) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=user, title="Homework", language="en")
    CoachMessage.objects.create(argument=argument, role="assistant", text="Try this.", step="claim")
    Argument.objects.filter(pk=argument.pk).update(
        pending_proposal={"field": "claim", "value": "Homework is useless.", "rationale": "Short."}
    )
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")

    page.locator("#proposal").get_by_role("button", name="Reject").click()
    page.locator("#proposal").wait_for(state="hidden")
    # Not silence: the coach's stored answer asks what to change.
    said = CoachMessage.objects.filter(argument=argument).last()
    assert said.role == "assistant" and said.text.endswith("?")
    assert last_coach_text(page) == said.text
    assert page.get_by_label("Your message").evaluate("node => node === document.activeElement")
    argument.refresh_from_db()
    assert (argument.pending_proposal, argument.claim, argument.current_step) == (None, "", "claim")


def test_it_offers_the_trial_as_soon_as_the_rebuttal_is_accepted(
    live_asgi, page, fake_anthropic
) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=user, title="Homework", language="en")
    drafted = {
        "claim": "Homework should be optional.",
        "grounds": "Pupils who choose their homework do more of it.",
        "warrant": "What pupils choose, they practise.",
        "grounds_backing": "A two-year study in forty schools.",
        "warrant_backing": "Research on motivation.",
        "qualifier": "In most schools",
    }
    Argument.objects.filter(pk=argument.pk).update(
        **drafted,
        current_step="rebuttal",
        pending_proposal={"field": "rebuttal", "value": "Unless exams require drill."},
    )
    CoachMessage.objects.create(
        argument=argument, role="assistant", text="Last one.", step="rebuttal"
    )
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    assert page.locator(".put-on-trial").count() == 0

    page.locator("#proposal").get_by_role("button", name="Accept").click()
    trial = page.locator("#trial-slot .put-on-trial")
    trial.wait_for()  # no reload: the refresh after accepting brings it
    assert trial.get_by_role("button", name="Put it on trial").is_visible()
    assert page.locator("#coach-complete").is_visible()
    assert page.locator("#composer").is_hidden()
    assert fake_anthropic.message_requests == []  # a complete argument opens no next step


def test_it_says_the_message_limit_and_keeps_the_words(live_asgi, page, no_anthropic_key) -> None:
    user = get_user_model().objects.create_user("ada", password=PASSWORD)
    argument = create_argument(owner=user, title="Long", language="en")
    CoachMessage.objects.create(argument=argument, role="assistant", text="Hello.", step="claim")
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    box = page.get_by_label("Your message")
    assert box.get_attribute("maxlength") == "4000"
    box.fill("y" * 3500)
    assert page.locator("#message-count").inner_text() == "3,500 of 4,000 characters"

    # A page that let more through (an old tab, a script) gets the server's sentence.
    too_long = "z" * 4100
    box.evaluate(
        "(node, text) => { node.removeAttribute('maxlength'); node.value = text; }", too_long
    )
    page.get_by_role("button", name="Send").click()
    error = page.locator("#coach-error")
    error.wait_for()
    assert "limit is 4,000" in error.inner_text()
    assert error.get_by_role("button", name="Retry").is_hidden()
    assert box.input_value() == too_long
    assert page.locator("#transcript .msg-user").count() == 0
    assert box.evaluate("node => node === document.activeElement")


def test_it_keeps_an_open_editor_and_its_words_when_a_reply_refreshes_the_draft(
    live_asgi, page, no_anthropic_key
) -> None:
    # A reply ends by re-rendering the steps and draft; an editor the student
    # had open must stay open with what they typed, not snap shut and lose it.
    get_user_model().objects.create_user("ada", password=PASSWORD)
    sign_in(page, live_asgi, "ada", PASSWORD)
    start_argument(page, live_asgi, "Bikes")
    # The opening turn ends with a refresh of the draft: open an editor after it.
    page.wait_for_selector("#coach[data-state=ready]")
    replies = page.locator("#transcript .msg-assistant").count()

    page.get_by_text("Write the claim yourself").click()
    page.get_by_label("Claim", exact=True).fill("Half-typed words")
    page.get_by_label("Your message").fill("Bike lanes make streets safer for everyone.")
    page.get_by_role("button", name="Send").click()
    page.wait_for_function(
        f"() => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length > {replies}"
    )
    page.wait_for_load_state("networkidle")
    editor = page.get_by_label("Claim", exact=True)
    assert editor.is_visible()
    assert editor.input_value() == "Half-typed words"


def coach_said(page, count: int) -> None:
    """Wait until the coach has said `count` messages and the page has caught up after."""
    page.wait_for_function(
        "n => document.querySelectorAll('#transcript .msg-assistant:not(.streaming)').length >= n"
        " && document.querySelector('#coach').dataset.state === 'ready'",
        arg=count,
    )


def test_it_moves_on_with_the_students_own_words_under_hints_only(
    live_asgi, page, no_anthropic_key
) -> None:
    users = get_user_model().objects
    teacher = make_instructor(user=users.create_user("teacher"))
    student = users.create_user("ada", password=PASSWORD)
    argument = work_for_an_assignment(
        teacher=teacher,
        student=student,
        class_name="Rhetoric",
        title="Clean air",
        prompt="Should cities cut traffic to clean the air?",
        due_at=timezone.now() + timedelta(days=7),
        coach_policy="hints_only",
        required_criteria={"grounds": ["grounds_has_number_or_citation"]},
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, live_asgi, "ada", PASSWORD)
    page.goto(f"{live_asgi.url}/coach/{argument.pk}/")
    page.evaluate("() => { window.stayedOnThePage = true; }")  # a reload would forget it
    coach_said(page, 1)

    # The claim, in the chat: the coach names the button, which holds the student's words.
    box = page.get_by_label("Your message")
    box.fill("Cities should cut traffic to clean the air.")
    box.press("Enter")
    coach_said(page, 2)
    assert '"Use my words for the claim"' in last_coach_text(page)
    own = page.locator("[data-testid=own-words]")
    assert own.get_by_label("Your words for the claim").input_value() == (
        "Cities should cut traffic to clean the air."
    )
    own.get_by_role("button", name="Use my words for the claim").click()

    # The next step opens with the coach's first message for it, naming the criterion.
    page.wait_for_function("() => document.querySelector('#rail').dataset.step === 'grounds'")
    coach_said(page, 3)
    assert "Your instructor requires this for the grounds" in last_coach_text(page)

    # Grounds that miss it: the box keeps them, the coach says what is missing.
    box.fill("Air pollution is bad for people.")
    box.press("Enter")
    coach_said(page, 4)
    words = own.get_by_label("Your words for the grounds")
    assert words.input_value() == "Air pollution is bad for people."
    own.get_by_role("button", name="Use my words for the grounds").click()
    coach_said(page, 5)
    assert last_coach_text(page).startswith("Not yet.")
    assert current_step(page) == "grounds" and page.locator("#coach-error").is_hidden()
    words.fill("Air pollution caused 4.2 million early deaths in 2019 (WHO, 2021).")
    own.get_by_role("button", name="Use my words for the grounds").click()
    page.wait_for_function("() => document.querySelector('#rail').dataset.step === 'warrant'")
    coach_said(page, 6)
    assert page.evaluate("() => window.stayedOnThePage") is True
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    argument.refresh_from_db()
    assert argument.grounds.startswith("Air pollution caused 4.2 million")
    assert argument.provenance == {"claim": "typed", "grounds": "typed"}
