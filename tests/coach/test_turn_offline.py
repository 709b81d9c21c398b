"""The coach turn with no API key: the offline coach through the real endpoint."""

from __future__ import annotations

from typing import Any

import pytest

from coach.models import Argument, CoachMessage, CoachTurn
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
