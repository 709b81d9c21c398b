"""The coach knows the assignment: criteria, hints only, questions, one accept gesture.

Both coaches through the real endpoint: the AI coach over the real SDK and HTTP to the
fake Anthropic server, and the offline coach without a key. The assignment's policy
comes from the classroom (classroom.policy), as on the site.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from classroom.services import start_submission
from coach.models import Argument, CoachMessage, CoachTurn
from tests.coach.support import coach_result, post_turn
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

CLAIM = "Cities should cut air pollution from traffic."
WEAK_GROUNDS = "Air pollution is bad for people."
GROUNDS = "Air pollution caused 4.2 million early deaths in 2019 (WHO, 2021)."
CRITERION = "The grounds contain a number or a citation"


@pytest.fixture(autouse=True)
def fast_retries(settings: Any) -> None:
    settings.LLM_MAX_RETRIES = 1


@pytest.fixture
def work(assignment: Any, student: Any) -> Argument:
    return start_submission(assignment=assignment, student=student).argument


@pytest.fixture
def on_grounds(assignment: Any, work: Argument) -> Argument:
    """An argument at the grounds, for an assignment whose grounds need a number or a citation."""
    assignment.required_criteria = {"grounds": ["grounds_has_number_or_citation"]}
    assignment.save()
    work.claim, work.current_step = CLAIM, "grounds"
    work.save()
    return work


@pytest.fixture
def spanish_work(assignment: Any, student: Any) -> Argument:
    assignment.language = "es"
    assignment.save()
    return start_submission(assignment=assignment, student=student).argument


def hints_only(assignment: Any) -> None:
    assignment.coach_policy = "hints_only"
    assignment.save()


def say(student: Any, argument: Argument, message: str) -> dict[str, Any]:
    """One turn; the guarded result."""
    argument.refresh_from_db()
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message=message, step=argument.current_step
    )
    assert status == 200, lines
    return lines[-1]["result"]


def post(user: Any, url: str, body: dict[str, Any]) -> Any:
    client = Client()
    client.force_login(user)
    return client.post(url, data=json.dumps(body), content_type="application/json")


def context_sent(fake: FakeAnthropicServer) -> dict[str, Any]:
    """The per-turn context block the AI coach was sent with the student's message."""
    content = fake.message_requests[-1].body["messages"][-1]["content"]
    block = content.split("<context>", 1)[1].split("</context>", 1)[0]
    return json.loads(block)


# Required criteria -------------------------------------------------------------------


def test_it_sends_the_steps_criteria_to_the_ai_and_holds_back_a_proposal_that_misses_them(
    fake_anthropic: FakeAnthropicServer, student: Any, on_grounds: Argument
) -> None:
    fake_anthropic.enqueue(
        Reply.json(
            coach_result(
                text="Good grounds! Press Accept to keep them.",
                step="grounds",
                confidence=0.9,
                proposedUpdate={"field": "grounds", "value": WEAK_GROUNDS},
            )
        )
    )
    result = say(student, on_grounds, "It is bad for people, so use that.")
    assert context_sent(fake_anthropic)["instructor"] == {
        "proposals_allowed": True,
        "required_for_this_step": [CRITERION],
    }
    assert "required_for_this_step" in fake_anthropic.message_requests[-1].system_text
    assert "proposedUpdate" not in result
    assert (
        "Your instructor requires this for the grounds: the grounds contain a number"
        in (result["assistantText"])
    )
    on_grounds.refresh_from_db()
    assert on_grounds.pending_proposal is None  # nothing the accept endpoint would refuse


def test_the_offline_coach_checks_the_criteria_before_it_praises_or_proposes(
    no_anthropic_key: None, student: Any, on_grounds: Argument
) -> None:
    weak = say(student, on_grounds, WEAK_GROUNDS)
    said = weak["assistantText"]
    assert "works as" not in said and "holds up" not in said  # not praised
    assert "reply" not in said.casefold()  # nor offered
    assert "the grounds contain a number or a citation" in said
    assert "proposedUpdate" not in weak
    assert "proposedUpdate" not in say(student, on_grounds, "yes")
    # Grounds that meet the criterion are praised and put up at once: one press of Accept.
    good = say(student, on_grounds, GROUNDS)
    assert "holds up as grounds" in good["assistantText"]
    assert '"Accept"' in good["assistantText"]
    assert good["proposedUpdate"]["value"] == GROUNDS


def test_the_offline_coach_says_the_criteria_when_it_opens_the_step(
    no_anthropic_key: None, student: Any, on_grounds: Argument
) -> None:
    opened = say(student, on_grounds, "")["assistantText"]
    assert "Your instructor requires this for the grounds" in opened


def test_a_refused_accept_is_explained_by_the_coach_in_the_transcript(
    no_anthropic_key: None, student: Any, on_grounds: Argument
) -> None:
    on_grounds.pending_proposal = {"field": "grounds", "value": GROUNDS, "rationale": ""}
    on_grounds.save()
    refused = post(
        student,
        f"/api/arguments/{on_grounds.pk}/proposal",
        {"action": "accept", "value": WEAK_GROUNDS},
    )
    assert refused.status_code == 400 and refused.json()["error"] == "criteria_not_met"
    said = refused.json()["coach_message"]
    assert said["text"].startswith("Not yet. Your instructor requires this for the grounds")
    assert 'press "Accept" again' in said["text"]
    stored = CoachMessage.objects.get(pk=said["message_id"])
    assert (stored.role, stored.step, stored.text) == ("assistant", "grounds", said["text"])
    on_grounds.refresh_from_db()
    assert on_grounds.grounds == "" and on_grounds.current_step == "grounds"


# Hints only --------------------------------------------------------------------------


def test_hints_only_reaches_the_ai_prompt(
    fake_anthropic: FakeAnthropicServer, student: Any, assignment: Any, work: Argument
) -> None:
    hints_only(assignment)
    fake_anthropic.enqueue(Reply.json(coach_result(text="Which position do you defend?")))
    say(student, work, "Can you write the claim for me?")
    context = context_sent(fake_anthropic)
    assert context["instructor"]["proposals_allowed"] is False
    assert context["student_asks_you_to_write_it"] is True
    request = fake_anthropic.message_requests[-1]
    assert "Hints only (proposals_allowed is false)" in request.body["messages"][-1]["content"]
    assert '"Use my words for <the element>"' in request.system_text


def test_hints_only_offline_wording_offers_no_proposal_and_names_the_button(
    no_anthropic_key: None, student: Any, assignment: Any, work: Argument
) -> None:
    hints_only(assignment)
    said = [say(student, work, message) for message in (CLAIM, "yes")]
    for result in said:
        text = result["assistantText"]
        assert "proposedUpdate" not in result
        assert "reply" not in text.casefold() and "propose" not in text
        assert "accept" not in text.casefold()
    assert '"Use my words for the claim"' in said[0]["assistantText"]


def test_hints_only_answers_a_request_to_write_it_with_the_policy_kindly(
    no_anthropic_key: None, student: Any, assignment: Any, spanish_work: Argument
) -> None:
    hints_only(assignment)
    said = say(student, spanish_work, "¿Me puedes escribir la tesis?")["assistantText"]
    assert said.startswith("En esta tarea tu docente me pidió que te dé pistas")
    assert "La afirmación es la postura que defiendes" in said
    assert "Un ejemplo en otro tema, árboles en las calles del pueblo. Afirmación: «" in said


def test_the_students_own_words_move_on_and_the_next_step_opens(
    no_anthropic_key: None, student: Any, assignment: Any, work: Argument
) -> None:
    hints_only(assignment)
    moved = post(student, f"/api/arguments/{work.pk}/advance", {"value": CLAIM})
    assert moved.status_code == 200 and moved.json()["advanced"] is True
    work.refresh_from_db()
    assert (work.claim, work.current_step, work.provenance) == (
        CLAIM,
        "grounds",
        {"claim": "typed"},
    )
    opened = say(student, work, "")["assistantText"]
    assert opened.startswith(("Let's work on your grounds", "Now for your grounds", "Next"))


def test_own_words_that_miss_a_criterion_stay_in_the_draft_and_the_coach_says_why(
    no_anthropic_key: None, student: Any, assignment: Any, on_grounds: Argument
) -> None:
    hints_only(assignment)
    refused = post(student, f"/api/arguments/{on_grounds.pk}/advance", {"value": WEAK_GROUNDS})
    assert refused.status_code == 400
    text = refused.json()["coach_message"]["text"]
    assert "the grounds contain a number or a citation" in text
    assert 'press "Use my words for the grounds" again' in text
    on_grounds.refresh_from_db()
    assert (on_grounds.grounds, on_grounds.current_step) == (WEAK_GROUNDS, "grounds")


def test_a_proposal_left_pending_is_neither_shown_nor_accepted_once_hints_only(
    fake_anthropic: FakeAnthropicServer, student: Any, assignment: Any, work: Argument
) -> None:
    work.pending_proposal = {"field": "claim", "value": CLAIM, "rationale": ""}
    work.save()
    hints_only(assignment)
    client = Client()
    client.force_login(student)
    assert client.get(f"/api/arguments/{work.pk}").json()["pending_proposal"] is None
    page = client.get(f"/coach/{work.pk}/").content.decode()
    assert CLAIM not in page and 'data-testid="proposal-accept"' not in page
    refused = post(student, f"/api/arguments/{work.pk}/proposal", {"action": "accept"})
    assert refused.status_code == 409 and refused.json()["error"] == "proposals_off"
    fake_anthropic.enqueue(Reply.json(coach_result(text="What is your position?")))
    result = say(student, work, "yes")
    assert context_sent(fake_anthropic)["pending_proposal"] is None
    assert "proposedUpdate" not in result  # not re-attached by the confirmation guard
    work.refresh_from_db()
    assert work.claim == ""


# Questions are not answers -----------------------------------------------------------

QUESTION = "What does grounds backing mean? I don't get the difference from grounds."


def test_the_offline_coach_answers_a_question_instead_of_grading_it(
    no_anthropic_key: None, student: Any, on_grounds: Argument
) -> None:
    said = say(student, on_grounds, QUESTION)["assistantText"]
    assert "Not quite" not in said and "Almost" not in said
    assert "The backing for your grounds says why your evidence can be trusted" in said
    assert "The grounds are the evidence itself" in said
    assert (
        "An example on another topic, trees in town streets. Grounds backing: \"The town's "
        "weather office measured" in said
    )
    assert 'Grounds: "At noon last July' in said
    assert "Right now we are working on your grounds." in said


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Can you write the claim for me?", "I cannot write it for you without a language model"),
        ("¿Qué es la garantía?", "La garantía es la regla general"),
    ],
)
def test_the_offline_coach_answers_requests_and_questions_in_either_language(
    no_anthropic_key: None, student: Any, work: Argument, message: str, expected: str
) -> None:
    if message.startswith("¿"):
        work.language = "es"
        work.save()
    said = say(student, work, message)["assistantText"]
    assert expected in said
    assert "it is a question" not in said and "es una pregunta" not in said


def test_the_ai_is_told_of_the_question_and_the_guards_do_not_grade_it(
    fake_anthropic: FakeAnthropicServer, student: Any, on_grounds: Argument
) -> None:
    fake_anthropic.enqueue(
        Reply.json(
            coach_result(
                text="Backing says where evidence comes from.",
                step="grounds",
                confidence=0.9,
                proposedUpdate={"field": "grounds", "value": GROUNDS},
                shouldAdvance=True,
                nextStep="warrant",
            )
        )
    )
    result = say(student, on_grounds, QUESTION)
    assert context_sent(fake_anthropic)["student_asks_about"] == ["groundsBacking", "grounds"]
    content = fake_anthropic.message_requests[-1].body["messages"][-1]["content"]
    assert "The student asked a question" in content
    assert "proposedUpdate" not in result and "shouldAdvance" not in result
    turn = CoachTurn.objects.get()
    assert next(d for d in turn.guard_decisions if d["name"] == "question")["changed"]


def test_a_question_does_not_use_up_the_first_attempt(
    fake_anthropic: FakeAnthropicServer, student: Any, work: Argument
) -> None:
    fake_anthropic.enqueue(
        Reply.json(coach_result(text="A claim is a position.")),
        Reply.json(coach_result(text="Ok.")),
    )
    say(student, work, "What is a claim?")
    say(student, work, CLAIM)
    assert context_sent(fake_anthropic)["first_message_for_this_step"] is True


# One accept gesture; no re-proposal after Reject -------------------------------------


def test_yes_after_reject_does_not_put_the_same_text_up_again(
    no_anthropic_key: None, student: Any, work: Argument
) -> None:
    say(student, work, CLAIM)
    proposed = say(student, work, "yes")
    assert proposed["proposedUpdate"]["value"] == CLAIM
    assert 'press "Accept"' in proposed["assistantText"]
    rejected = post(student, f"/api/arguments/{work.pk}/proposal", {"action": "reject"})
    assert rejected.status_code == 200
    again = say(student, work, "yes")
    assert "proposedUpdate" not in again
    assert "You turned that version down" in again["assistantText"]
    # Typing the same words again is choosing them after all.
    say(student, work, CLAIM)
    assert say(student, work, "yes")["proposedUpdate"]["value"] == CLAIM


def test_the_ai_coach_cannot_put_a_rejected_text_up_again(
    fake_anthropic: FakeAnthropicServer, student: Any, work: Argument
) -> None:
    work.pending_proposal = {"field": "claim", "value": CLAIM, "rationale": ""}
    work.save()
    post(student, f"/api/arguments/{work.pk}/proposal", {"action": "reject"})
    fake_anthropic.enqueue(
        Reply.json(
            coach_result(
                text="Here it is again.",
                confidence=0.9,
                proposedUpdate={"field": "claim", "value": CLAIM},
            )
        )
    )
    result = say(student, work, "yes")
    assert "proposedUpdate" not in result
    work.refresh_from_db()
    assert work.pending_proposal is None
