"""The coaching page (coach.views.argument_detail, argument_advance) under an assignment's
policy: the student's own way on under hints only, the one accept gesture, where the
coach opens a step, and the stable hooks a browser test finds them by."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from classroom.services import start_submission
from coach.models import Argument, CoachMessage

pytestmark = pytest.mark.django_db

CLAIM = "City centres should be closed to private cars."


@pytest.fixture
def work(assignment: Any, student: Any) -> Argument:
    return start_submission(assignment=assignment, student=student).argument


@pytest.fixture
def browser(student: Any) -> Client:
    client = Client()
    client.force_login(student)
    return client


def page(client: Client, argument: Argument, language: str = "en") -> str:
    client.cookies["django_language"] = language
    response = client.get(f"/coach/{argument.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def hooked(html: str, testid: str) -> str:
    """The opening tag and text of the element with this data-testid (its first line)."""
    match = re.search(rf'<[^<>]*data-testid="{testid}"[^<>]*>[^<]*', html)
    assert match is not None, testid
    return match.group(0)


def text_of(html: str, testid: str) -> str:
    return hooked(html, testid).split(">", 1)[1].strip()


def test_it_offers_the_students_latest_words_to_keep_under_hints_only(
    browser: Client, assignment: Any, work: Argument
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()
    for text in ("Cars out", "What is a claim?", CLAIM, "yes"):
        CoachMessage.objects.create(argument=work, role="user", text=text, step="claim")
    html = page(browser, work)
    assert " hidden" not in hooked(html, "own-words")
    assert text_of(html, "own-words-text") == CLAIM
    assert text_of(html, "use-my-words") == "Use my words for the claim"
    assert f'action="/coach/{work.pk}/advance/" class="own-words-form"' in html  # no JS needed
    assert '<h2 id="own-words-heading">Your words for the claim</h2>' in html
    spanish = page(browser, work, "es")
    assert text_of(spanish, "use-my-words") == "Usar mis palabras para la afirmación"


def test_it_offers_no_own_words_box_where_the_coach_proposes(
    browser: Client, work: Argument
) -> None:
    work.pending_proposal = {"field": "claim", "value": CLAIM, "rationale": ""}
    work.save()
    html = page(browser, work)
    assert " hidden" in hooked(html, "own-words") and "use-my-words" not in html
    assert text_of(html, "proposal-accept") == "Accept"
    assert text_of(page(browser, work, "es"), "proposal-accept") == "Aceptar"


def test_it_starts_with_words_saved_after_the_chat(
    browser: Client, assignment: Any, work: Argument
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()
    CoachMessage.objects.create(argument=work, role="user", text="Cars out", step="claim")
    work.claim = CLAIM
    work.save()  # the student saved their text after saying "Cars out"
    assert text_of(page(browser, work), "own-words-text") == CLAIM


def test_the_coach_opens_a_step_it_has_not_spoken_on(browser: Client, work: Argument) -> None:
    CoachMessage.objects.create(argument=work, role="assistant", text="Hello.", step="claim")
    work.claim, work.current_step = CLAIM, "grounds"
    work.save()
    assert 'data-autostart="true"' in page(browser, work)
    CoachMessage.objects.create(argument=work, role="assistant", text="Grounds?", step="grounds")
    assert 'data-autostart="false"' in page(browser, work)


def test_the_form_without_javascript_moves_on_and_lands_on_the_box(
    browser: Client, assignment: Any, work: Argument
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()
    response = browser.post(f"/coach/{work.pk}/advance/", {"value": CLAIM})
    assert response.status_code == 302 and response["Location"].endswith("#own-words")
    work.refresh_from_db()
    assert (work.claim, work.current_step) == (CLAIM, "grounds")


def test_the_form_without_javascript_says_why_it_did_not_move_on(
    browser: Client, assignment: Any, work: Argument
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.required_criteria = {"claim": ["claim_is_one_sentence"]}
    assignment.save()
    response = browser.post(
        f"/coach/{work.pk}/advance/", {"value": "Cars out. Now. Really."}, follow=True
    )
    assert "Your instructor asks for more before you move on" in response.content.decode()
    work.refresh_from_db()
    assert work.current_step == "claim"


def test_it_offers_the_own_words_box_when_the_coach_is_off_and_opens_no_step(
    browser: Client, assignment: Any, work: Argument
) -> None:
    assignment.coach_policy = "off"
    assignment.save()
    work.claim = CLAIM
    work.save()
    html = page(browser, work)
    assert text_of(html, "own-words-text") == CLAIM
    assert 'data-coach-on="false"' in html and 'data-autostart="false"' in html


@pytest.mark.parametrize("value", ["nul \x00 byte", "x" * 5001])
def test_the_form_without_javascript_refuses_text_it_cannot_store_with_a_sentence(
    browser: Client, assignment: Any, work: Argument, value: str
) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()
    response = browser.post(f"/coach/{work.pk}/advance/", {"value": value}, follow=True)
    assert response.status_code == 200
    work.refresh_from_db()
    assert (work.claim, work.current_step) == ("", "claim")
