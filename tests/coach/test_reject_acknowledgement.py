"""A rejected proposal is answered: the coach acknowledges and asks what to change."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from coach.models import Argument, CoachMessage, CoachTurn
from coach.offline import acknowledge_rejection
from coach.steps import STEP_IDS
from tests.coach.support import coach_result, post_turn
from tests.fakes.anthropic_server import FakeAnthropicServer, Reply

PROPOSAL = {"field": "claim", "value": "Cities should ban cars downtown.", "rationale": ""}


def reject(user: Any, argument: Argument) -> Any:
    argument.pending_proposal = dict(PROPOSAL, field=argument.current_step)
    argument.save()
    client = Client()
    client.force_login(user)
    return client.post(
        f"/api/arguments/{argument.pk}/proposal",
        data={"action": "reject"},
        content_type="application/json",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("fixture", "asks"), [("argument", "What"), ("spanish_argument", "¿Qué")])
def test_it_acknowledges_a_rejection_and_asks_what_to_change(
    request: pytest.FixtureRequest, student: Any, fixture: str, asks: str
) -> None:
    argument = request.getfixturevalue(fixture)
    body = reject(student, argument).json()
    said = body["acknowledgement"]
    assert asks in said["text"] and said["text"].rstrip().endswith("?")
    stored = CoachMessage.objects.get(pk=said["message_id"])
    assert (stored.role, stored.text, stored.step) == ("assistant", said["text"], "claim")
    assert body["pending_proposal"] is None and not CoachTurn.objects.exists()


@pytest.mark.django_db
def test_it_does_not_acknowledge_the_same_way_twice_in_a_row(
    student: Any, argument: Argument
) -> None:
    texts = [reject(student, argument).json()["acknowledgement"]["text"] for _ in range(4)]
    assert all(one != two for one, two in zip(texts, texts[1:], strict=False))


@pytest.mark.django_db
def test_it_does_not_acknowledge_a_rejection_it_refused(
    student: Any, other_student: Any, argument: Argument
) -> None:
    assert reject(other_student, argument).status_code == 404
    assert not CoachMessage.objects.exists()


@pytest.mark.parametrize("step", STEP_IDS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_its_acknowledgement_names_the_step_grammatically(step: str, language: str) -> None:
    texts = {acknowledge_rejection(step=step, language=language, turn_count=n) for n in range(3)}
    assert len(texts) == 3
    joined = " ".join(texts)
    for wrong in (" a grounds", " tu datos", "de el ", "your the "):
        assert wrong not in joined


@pytest.mark.django_db(transaction=True)
def test_the_ai_coach_sees_the_acknowledgement_in_its_history(
    fake_anthropic: FakeAnthropicServer, student: Any, argument: Argument
) -> None:
    CoachMessage.objects.create(argument=argument, role="user", text="yes", step="claim")
    CoachMessage.objects.create(argument=argument, role="assistant", text="Here.", step="claim")
    said = reject(student, argument).json()["acknowledgement"]["text"]
    fake_anthropic.enqueue(Reply.json(coach_result(text="Which part should change?")))
    status, _, lines = post_turn(
        student, argument_id=argument.pk, message="Make it about buses.", step="claim"
    )
    assert status == 200 and lines
    sent = json.dumps(fake_anthropic.message_requests[-1].body["messages"], ensure_ascii=False)
    assert said in sent
