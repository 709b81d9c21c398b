"""The coach API refuses hostile input with a 400 that says what to fix, on both databases."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from coach.models import Argument, CoachMessage

pytestmark = pytest.mark.django_db

UNSTORABLE = ["a\x00b", "half an emoji \ud83d", "\udfff"]


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, url: str, body: str | bytes) -> Any:
    return client.post(url, data=body, content_type="application/json")


def post_turn(user: Any, **body: Any) -> tuple[int, dict[str, Any]]:
    # The sync client runs the async view in this thread, inside the test's transaction.
    response = post(client_for(user), "/api/coach", json.dumps(body))
    assert not response.streaming, "the turn was not refused"
    return response.status_code, response.json()


@pytest.mark.parametrize("text", UNSTORABLE)
def test_it_refuses_text_a_database_cannot_store_and_stores_nothing(
    student: Any, argument: Argument, no_anthropic_key: None, text: str
) -> None:
    status, refusal = post_turn(student, argument_id=argument.pk, message=text, step="claim")
    assert status == 400 and refusal["error"] == "unstorable_text"
    assert "cannot be saved" in refusal["detail"]
    assert not CoachMessage.objects.filter(argument=argument).exists()

    client = client_for(student)
    draft = post(
        client, f"/api/arguments/{argument.pk}/draft", json.dumps({"field": "claim", "value": text})
    )
    assert draft.status_code == 400 and draft.json()["error"] == "unstorable_text"
    argument.pending_proposal = {
        "field": "claim",
        "value": "Cities should ban cars.",
        "rationale": "",
    }
    argument.save()
    accept = post(
        client,
        f"/api/arguments/{argument.pk}/proposal",
        json.dumps({"action": "accept", "value": text}),
    )
    assert accept.status_code == 400 and accept.json()["error"] == "unstorable_text"
    argument.refresh_from_db()
    assert argument.claim == "" and argument.pending_proposal is not None


@pytest.mark.parametrize(
    "body",
    [b"[" * 5000 + b"]" * 5000, b'{"argument_id": ' + b"[" * 5000 + b"]" * 5000 + b"}"],
    ids=["deep-body", "deep-field"],
)
def test_it_refuses_json_nested_thousands_deep(
    student: Any, argument: Argument, body: bytes
) -> None:
    client = client_for(student)
    for url in (
        "/api/coach",
        f"/api/arguments/{argument.pk}/draft",
        f"/api/arguments/{argument.pk}/proposal",
    ):
        response = post(client, url, body)
        assert response.status_code == 400, url
        assert response.json() == {
            "error": "bad_json",
            "detail": "the JSON is nested deeper than 32 levels",
        }


@pytest.mark.parametrize("argument_id", ["²", "٣", "9" * 40, 2**63, -1, True, "1e3"])
def test_it_refuses_an_argument_id_that_is_not_one(
    student: Any, argument: Argument, no_anthropic_key: None, argument_id: Any
) -> None:
    status, refusal = post_turn(student, argument_id=argument_id, message="Hi", step="claim")
    assert status == 400 and refusal["error"] == "bad_argument_id"


@pytest.mark.parametrize("retry_of", ["²", 2**64, True, 0])
def test_it_refuses_a_retry_of_that_is_not_a_message_id(
    student: Any, argument: Argument, no_anthropic_key: None, retry_of: Any
) -> None:
    status, refusal = post_turn(
        student, argument_id=argument.pk, message="Hi", step="claim", retry_of=retry_of
    )
    assert status == 400 and refusal["error"] == "bad_retry_of"


@pytest.mark.django_db(transaction=True)
def test_it_sends_a_failed_turn_a_plain_sentence_and_keeps_the_details_for_instructors(
    fake_anthropic: Any, student: Any, argument: Argument, settings: Any
) -> None:
    from coach.models import CoachTurn
    from tests.coach.support import post_turn as post_async_turn
    from tests.fakes.anthropic_server import Reply

    settings.LLM_MAX_RETRIES = 0
    fake_anthropic.enqueue(Reply.error(529, error_type="overloaded_error", message="Overloaded"))

    status, _, lines = post_async_turn(
        student, argument_id=argument.pk, message="Cities should ban cars.", step="claim"
    )

    assert status == 200 and lines[-1]["error"] == "coach_stream_failed"
    assert lines[-1]["detail"].startswith("The coach could not answer this time.")
    for internal in ("529", "Overloaded", "Error", "call_failed"):
        assert internal not in lines[-1]["detail"]
    assert "529" in CoachTurn.objects.get().error_detail
