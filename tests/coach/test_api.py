"""The draft, proposal and typed-field endpoints; authorization and CSRF on all four."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import AsyncClient, Client

from coach.models import Argument, CoachMessage, CoachTurn
from coach.services import create_argument
from tests.coach.support import post_turn, run

pytestmark = pytest.mark.django_db

PROPOSAL = {"field": "claim", "value": "Cities should ban cars downtown.", "rationale": "Clear."}


def client_for(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def with_pending(argument: Argument, proposal: dict[str, Any] = PROPOSAL) -> Argument:
    argument.pending_proposal = dict(proposal)
    argument.save()
    return argument


def decide(client: Client, argument: Argument, **body: Any) -> Any:
    return client.post(
        f"/api/arguments/{argument.pk}/proposal", data=body, content_type="application/json"
    )


def type_field(client: Client, argument: Argument, field: str, value: str) -> Any:
    return client.post(
        f"/api/arguments/{argument.pk}/draft",
        data={"field": field, "value": value},
        content_type="application/json",
    )


def test_it_shows_the_draft_as_json(
    student: Any, argument: Argument, no_anthropic_key: None
) -> None:
    argument.claim, argument.provenance = "Cities should ban cars.", {"claim": "typed"}
    argument.save()
    draft = client_for(student).get(f"/api/arguments/{argument.pk}").json()
    assert {key: draft[key] for key in ("id", "title", "language", "current_step", "coach")} == {
        "id": argument.pk,
        "title": "Car-free city centres",
        "language": "en",
        "current_step": "claim",
        "coach": "offline",
    }
    assert draft["steps"][0] == {
        "id": "claim",
        "label": "Claim",
        "field": "claim",
        "value": "Cities should ban cars.",
        "status": "current",
        "provenance": "typed",
    }
    assert [s["status"] for s in draft["steps"]] == ["current"] + ["todo"] * 6
    assert draft["pending_proposal"] is None and draft["completed_at"] is None


def test_it_says_the_ai_coach_answers_when_a_key_is_set(
    student: Any, argument: Argument, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    assert client_for(student).get(f"/api/arguments/{argument.pk}").json()["coach"] == "ai"


def test_it_labels_steps_in_the_arguments_language(
    student: Any, spanish_argument: Argument
) -> None:
    draft = client_for(student).get(f"/api/arguments/{spanish_argument.pk}").json()
    assert [s["label"] for s in draft["steps"]][:2] == ["Afirmación", "Datos"]


def test_it_accepts_a_proposal_and_advances(student: Any, argument: Argument) -> None:
    response = decide(client_for(student), with_pending(argument), action="accept")
    assert response.status_code == 200
    body = response.json()
    assert body["advanced"] is True and body["completed"] is False
    assert body["current_step"] == "grounds" and body["pending_proposal"] is None
    assert body["steps"][0]["value"] == PROPOSAL["value"]
    assert body["steps"][0]["provenance"] == "accepted"
    assert [s["status"] for s in body["steps"][:3]] == ["done", "current", "todo"]


def test_it_accepts_an_edited_proposal_as_edited(student: Any, argument: Argument) -> None:
    body = decide(
        client_for(student),
        with_pending(argument),
        action="accept",
        value="  Cars out of centres. ",
    ).json()
    assert body["steps"][0]["value"] == "Cars out of centres."
    assert body["steps"][0]["provenance"] == "edited"


def test_it_completes_the_argument_when_the_rebuttal_is_accepted(
    student: Any, argument: Argument
) -> None:
    argument.current_step = "rebuttal"
    proposal = {"field": "rebuttal", "value": "Unless transit fails.", "rationale": ""}
    body = decide(client_for(student), with_pending(argument, proposal), action="accept").json()
    assert body["advanced"] is False and body["completed"] is True
    assert body["completed_at"] and body["current_step"] == "rebuttal"
    assert {s["status"] for s in body["steps"]} == {"done"}


def test_it_rejects_a_proposal_without_touching_the_draft(student: Any, argument: Argument) -> None:
    body = decide(client_for(student), with_pending(argument), action="reject").json()
    assert body["pending_proposal"] is None and body["advanced"] is False
    argument.refresh_from_db()
    assert argument.claim == "" and argument.current_step == "claim"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"action": "accept"}, "no_pending_proposal"),
        ({"action": "reject"}, "no_pending_proposal"),
        ({"action": "maybe"}, "bad_action"),
        ({"action": "accept", "value": 3}, "bad_value"),
    ],
)
def test_it_refuses_a_decision_that_cannot_apply(
    student: Any, argument: Argument, body: dict[str, Any], code: str
) -> None:
    response = decide(client_for(student), argument, **body)
    assert response.status_code == 400 and response.json()["error"] == code


def test_it_refuses_to_accept_an_empty_value(student: Any, argument: Argument) -> None:
    response = decide(client_for(student), with_pending(argument), action="accept", value="  ")
    assert response.json()["error"] == "empty_value"
    argument.refresh_from_db()
    assert argument.pending_proposal == PROPOSAL


def test_it_saves_typed_text_with_its_provenance(student: Any, argument: Argument) -> None:
    client = client_for(student)
    body = type_field(client, argument, "warrantBacking", " Research shows it. ").json()
    step = body["steps"][4]
    assert (step["field"], step["value"], step["provenance"]) == (
        "warrant_backing",
        "Research shows it.",
        "typed",
    )
    assert body["current_step"] == "claim"  # typing does not advance


def test_it_marks_an_accepted_field_edited_once_the_student_changes_it(
    student: Any, argument: Argument
) -> None:
    client = client_for(student)
    decide(client, with_pending(argument), action="accept")
    body = type_field(client, argument, "claim", "Cities should ban most cars downtown.").json()
    assert body["steps"][0]["provenance"] == "edited"
    cleared = type_field(client, argument, "claim", "").json()
    assert cleared["steps"][0]["provenance"] is None


def test_it_refuses_an_unknown_field(student: Any, argument: Argument) -> None:
    response = type_field(client_for(student), argument, "grounds_backing", "x")
    assert response.status_code == 400 and response.json()["error"] == "unknown_step"


def test_it_refuses_malformed_json(student: Any, argument: Argument) -> None:
    response = client_for(student).post(
        f"/api/arguments/{argument.pk}/draft", data="{nope", content_type="application/json"
    )
    assert response.status_code == 400 and response.json()["error"] == "bad_json"


# Authorization ---------------------------------------------------------------


def _calls(argument_id: int) -> list[tuple[str, str, dict[str, Any] | None]]:
    return [
        ("get", f"/api/arguments/{argument_id}", None),
        ("post", f"/api/arguments/{argument_id}/proposal", {"action": "reject"}),
        ("post", f"/api/arguments/{argument_id}/draft", {"field": "claim", "value": "Mine now."}),
        ("post", "/api/coach", {"argument_id": argument_id, "message": "hi", "step": "claim"}),
    ]


def _call(client: Client, method: str, url: str, body: dict[str, Any] | None) -> Any:
    if method == "get":
        return client.get(url)
    return client.post(url, data=body, content_type="application/json")


@pytest.mark.parametrize("call", range(4))
def test_it_answers_404_for_another_students_argument(
    other_student: Any, argument: Argument, call: int
) -> None:
    with_pending(argument)
    response = _call(client_for(other_student), *_calls(argument.pk)[call])
    assert response.status_code == 404 and response.json()["error"] == "not_found"
    argument.refresh_from_db()
    assert argument.pending_proposal == PROPOSAL and argument.claim == ""
    assert not CoachMessage.objects.exists() and not CoachTurn.objects.exists()


@pytest.mark.parametrize("call", range(4))
def test_it_answers_404_for_a_missing_argument(student: Any, call: int) -> None:
    response = _call(client_for(student), *_calls(987654)[call])
    assert response.status_code == 404


@pytest.mark.parametrize("call", range(4))
def test_it_sends_anonymous_callers_to_sign_in(argument: Argument, call: int) -> None:
    response = _call(Client(), *_calls(argument.pk)[call])
    assert response.status_code == 401
    assert response.json() == {
        "error": "authentication_required",
        "detail": "sign in first",
        "login_url": "/accounts/login/",
    }


@pytest.mark.parametrize("call", [1, 2, 3])
def test_it_refuses_a_post_without_the_csrf_token(
    student: Any, argument: Argument, call: int
) -> None:
    client = client_for(student, enforce_csrf_checks=True)
    response = _call(client, *_calls(argument.pk)[call])
    assert response.status_code == 403


def test_it_accepts_a_post_with_the_csrf_token(student: Any, argument: Argument) -> None:
    client = client_for(student, enforce_csrf_checks=True)
    client.get("/coach/")  # the page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(
        f"/api/arguments/{argument.pk}/draft",
        data={"field": "claim", "value": "Cities should ban cars."},
        content_type="application/json",
        headers={"X-CSRFToken": token},
    )
    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_it_streams_only_for_the_owner(
    student: Any, other_student: Any, no_anthropic_key: None
) -> None:
    mine = create_argument(owner=other_student, title="Hers", language="en")
    status, _, lines = post_turn(student, argument_id=mine.pk, message="hi", step="claim")
    assert status == 404 and lines == [{"error": "not_found", "detail": "no such argument"}]
    status, _, lines = post_turn(other_student, argument_id=mine.pk, message="hi", step="claim")
    assert status == 200 and lines[-1]["type"] == "result"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"argument_id": "x", "message": "hi", "step": "claim"}, "bad_argument_id"),
        ({"argument_id": True, "message": "hi", "step": "claim"}, "bad_argument_id"),
        ({"message": "hi", "step": "claim"}, "bad_argument_id"),
        ({"argument_id": 1, "message": 5, "step": "claim"}, "bad_message"),
        ({"argument_id": 1, "message": "x" * 4001, "step": "claim"}, "message_too_long"),
        ({"argument_id": 1, "message": "hi"}, "bad_step"),
        ({"argument_id": 1, "message": "hi", "step": "claim", "retry_of": "7"}, "bad_retry_of"),
        ({"argument_id": 1, "message": "hi", "step": "claim", "retry_of": 0}, "bad_retry_of"),
    ],
)
def test_it_refuses_a_malformed_turn_request(
    student: Any, payload: dict[str, Any], code: str
) -> None:
    client = AsyncClient()
    client.force_login(student)
    response = run(client.post("/api/coach", data=payload, content_type="application/json"))
    assert response.status_code == 400 and response.json()["error"] == code


@pytest.mark.django_db(transaction=True)
def test_it_says_the_message_limit_in_words(student: Any, argument: Argument) -> None:
    client = AsyncClient()
    client.force_login(student)
    payload = {"argument_id": argument.pk, "message": "x" * 4321, "step": "claim"}
    response = run(client.post("/api/coach", data=payload, content_type="application/json"))
    body = response.json()
    assert response.status_code == 400 and body["error"] == "message_too_long"
    assert "4,321" in body["detail"] and "4,000" in body["detail"]
    assert "message_too_long" not in body["detail"]
    # Nothing was stored: the words are still only in the student's text box.
    assert not CoachMessage.objects.filter(argument=argument).exists()
