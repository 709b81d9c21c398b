"""Retrying a failed turn stores the student's words once (``retry_of``)."""

from __future__ import annotations

from typing import Any

import pytest

from coach.models import Argument, CoachMessage, CoachTurn
from coach.services import create_argument
from tests.coach.support import coach_result, post_turn
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = "Cities should ban cars downtown."
REPLY = coach_result(text="A clear position. Which evidence supports it?")


def send(student: Any, argument: Argument, **extra: Any) -> list[dict]:
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message=extra.pop("message", WORDS), **extra
    )
    assert status == 200
    return lines


def test_it_reuses_the_stored_message_when_a_failed_turn_is_retried(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    fake_anthropic.enqueue(Reply.stream_error('{"assistantText": "A clear'), Reply.json(REPLY))
    failed = send(student, argument, step="claim")
    assert failed[-1]["error"] == "coach_stream_failed"
    stored_id = failed[-1]["user_message_id"]

    retried = send(student, argument, step="claim", retry_of=stored_id)
    assert retried[0] == {"type": "stored", "user_message_id": stored_id}
    assert retried[-1]["type"] == "result"

    assert list(CoachMessage.objects.values_list("role", "text")) == [
        ("user", WORDS),
        ("assistant", REPLY["assistantText"]),
    ]
    turns = list(CoachTurn.objects.order_by("id"))
    assert [turn.error_code for turn in turns] == ["coach_stream_failed", ""]
    assert {turn.user_message_id for turn in turns} == {stored_id}
    # The model hears the words once, still as the student's first message on the step.
    request = fake_anthropic.message_requests[-1].body
    sent = "".join(message["content"] for message in request["messages"])
    assert sent.count(WORDS) == 1
    assert '"first_message_for_this_step": true' in sent


@pytest.mark.usefixtures("no_anthropic_key")
def test_it_stores_the_words_again_once_they_were_answered(
    student: Any, argument: Argument
) -> None:
    first = send(student, argument, step="claim")
    assert first[-1]["type"] == "result"
    again = send(student, argument, step="claim", retry_of=first[0]["user_message_id"])
    assert again[0]["user_message_id"] != first[0]["user_message_id"]
    assert CoachMessage.objects.filter(role="user").count() == 2


@pytest.mark.usefixtures("no_anthropic_key")
def test_it_stores_other_words_as_a_new_message(student: Any, argument: Argument) -> None:
    failed = send(student, argument, step="grounds")  # a stale page: the turn fails
    assert failed[-1]["error"] == "coach_step_mismatch"
    lines = send(
        student, argument, step="claim", message="Cars out.", retry_of=failed[0]["user_message_id"]
    )
    assert lines[-1]["type"] == "result"
    assert list(CoachMessage.objects.filter(role="user").values_list("text", "step")) == [
        (WORDS, "grounds"),
        ("Cars out.", "claim"),
    ]


@pytest.mark.usefixtures("no_anthropic_key")
def test_it_never_reuses_a_message_of_another_argument(
    student: Any, other_student: Any, argument: Argument
) -> None:
    theirs = create_argument(owner=other_student, title="Theirs", language="en")
    failed = send(other_student, theirs, step="grounds")
    their_message = failed[0]["user_message_id"]

    lines = send(student, argument, step="claim", retry_of=their_message)
    assert lines[0]["user_message_id"] != their_message
    assert CoachMessage.objects.filter(argument=argument, role="user").count() == 1
    assert list(CoachMessage.objects.filter(argument=theirs).values_list("pk", flat=True)) == [
        their_message
    ]
