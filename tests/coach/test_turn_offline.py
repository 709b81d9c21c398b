"""The coach turn with no API key: the offline coach through the real endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from coach.models import Argument, CoachMessage, CoachTurn
from coach.offline import tidy
from tests.coach.support import post_turn

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_anthropic_key")]


def test_it_streams_deltas_then_a_guarded_result(student: Any, argument: Argument) -> None:
    status, content_type, lines = post_turn(
        student, argument_id=argument.pk, message="Cars", step="claim"
    )
    assert status == 200
    assert content_type == "application/x-ndjson"
    stored, *deltas, last = lines
    assert stored == {"type": "stored", "user_message_id": CoachMessage.objects.get(role="user").pk}
    assert deltas and all(line["type"] == "delta" for line in deltas)
    assert last["type"] == "result"
    assert last["result"]["assistantText"].startswith("".join(line["text"] for line in deltas))
    assert "too short" in last["result"]["assistantText"]
    message = CoachMessage.objects.get(pk=last["message_id"])
    assert message.role == "assistant" and message.text == last["result"]["assistantText"]
    turn = CoachTurn.objects.get()
    assert turn.coach == "offline" and turn.error_code == ""
    assert [d["name"] for d in turn.guard_decisions][0] == "step_coercion"


def test_it_proposes_the_students_own_text_on_confirmation(
    student: Any, argument: Argument
) -> None:
    post_turn(
        student, argument_id=argument.pk, message="cities should ban cars downtown", step="claim"
    )
    *_, last = post_turn(student, argument_id=argument.pk, message="Yes!", step="claim")[2]
    result = last["result"]
    assert result["proposedUpdate"] == {
        "field": "claim",
        "value": "Cities should ban cars downtown.",
    }
    assert result["shouldAdvance"] is True and result["nextStep"] == "grounds"
    argument.refresh_from_db()
    assert argument.pending_proposal["value"] == "Cities should ban cars downtown."
    assert argument.claim == ""  # only accepting changes the draft


def test_it_opens_a_step_on_an_empty_message_without_storing_one(
    student: Any, argument: Argument
) -> None:
    lines = post_turn(student, argument_id=argument.pk, message="", step="claim")[2]
    assert all(line["type"] in ("delta", "result") for line in lines)  # nothing was stored
    last = lines[-1]
    assert "nextQuestion" in last["result"]
    assert last["result"]["assistantText"].endswith(last["result"]["nextQuestion"])
    assert list(CoachMessage.objects.values_list("role", flat=True)) == ["assistant"]


def test_it_names_the_accept_button_as_the_readers_page_does(
    student: Any, argument: Argument
) -> None:
    # An English argument read on a Spanish page: the coach speaks English, and the
    # button it names is the one the page shows, "Aceptar".
    assert argument.language == "en"
    post_turn(
        student,
        argument_id=argument.pk,
        message="cities should ban cars downtown",
        step="claim",
        page_language="es",
    )
    *_, last = post_turn(
        student, argument_id=argument.pk, message="Yes!", step="claim", page_language="es"
    )[2]
    said = last["result"]["assistantText"]
    assert last["result"]["proposedUpdate"] is not None
    assert '"Aceptar"' in said and '"Accept"' not in said


SEVEN_STEPS = (
    ("claim", "cities should ban cars downtown"),
    ("grounds", "In Madrid, air pollution fell 30% after cars were banned downtown in 2018"),
    ("warrant", "If banning cars cuts pollution, cities should ban them downtown"),
    ("groundsBacking", "The city's air quality agency published the data in 2019"),
    ("warrantBacking", "Public health research links car pollution to illness"),
    ("qualifier", "probably"),
    ("rebuttal", "unless buses and trams break down"),
)


def accept(student: Any, argument: Argument) -> dict[str, Any]:
    client = Client()
    client.force_login(student)
    response = client.post(
        f"/api/arguments/{argument.pk}/proposal",
        data={"action": "accept"},
        content_type="application/json",
    )
    return {"status": response.status_code, **response.json()}


def test_it_keeps_seven_good_steps_with_one_message_and_one_accept_each(
    student: Any, argument: Argument
) -> None:
    # The page opens each step (an empty message), the student types, and Accept keeps it:
    # 14 messages for the whole argument, under the 20 a minute the site allows.
    sent = 0
    for step, text in SEVEN_STEPS:
        post_turn(student, argument_id=argument.pk, message="", step=step)
        status, _, lines = post_turn(student, argument_id=argument.pk, message=text, step=step)
        sent += 2
        assert status == 200, lines
        result = lines[-1]["result"]
        assert result["proposedUpdate"]["value"] == tidy(text), result["assistantText"]
        assert accept(student, argument)["status"] == 200
    argument.refresh_from_db()
    assert argument.completed_at is not None and sent == 14 < settings.RATE_LIMITS["coach_turn"][0]
    assert argument.claim == "Cities should ban cars downtown."
    last = CoachMessage.objects.filter(role="assistant").latest("id").text
    assert "finish" in last and "move on" not in last
    # After the last step nothing is left to accept, and the coach does not say to press it.
    *_, after = post_turn(student, argument_id=argument.pk, message="yes", step="rebuttal")[2]
    assert after["result"].get("proposedUpdate") is None
    assert "Accept" not in after["result"]["assistantText"]


def test_it_never_lets_accept_store_the_claim_as_the_grounds(
    student: Any, argument: Argument
) -> None:
    claim = "Schools should start at 9 a.m. instead of 8 a.m."
    post_turn(student, argument_id=argument.pk, message=claim, step="claim")
    assert accept(student, argument)["status"] == 200
    for message in (claim, "yes"):
        *_, last = post_turn(student, argument_id=argument.pk, message=message, step="grounds")[2]
        said = last["result"]["assistantText"]
        assert last["result"].get("proposedUpdate") is None, said
        assert "same text as your claim" in said and "works as" not in said
    assert accept(student, argument)["error"] == "no_pending_proposal"
    argument.refresh_from_db()
    assert argument.grounds == "" and argument.current_step == "grounds"
