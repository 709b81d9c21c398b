"""The instructors' admin: filters, search, the read-only transcript with turn records, CSV."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from coach.admin import CSV_COLUMNS
from coach.models import Argument, CoachMessage, CoachTurn
from coach.services import create_argument

pytestmark = pytest.mark.django_db


@pytest.fixture
def instructor(django_user_model: Any) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("prof", "prof@example.org"))
    return client


@pytest.fixture
def worked(student: Any, argument: Argument) -> Argument:
    """An argument with a claim accepted from the coach and one guarded and one failed turn."""
    argument.claim = "Cities should ban cars downtown."
    argument.provenance = {"claim": "accepted"}
    argument.current_step = "grounds"
    argument.save()
    said = CoachMessage.objects.create(argument=argument, role="user", text="yes", step="claim")
    reply = CoachMessage.objects.create(
        argument=argument, role="assistant", text="Here it is.", step="claim"
    )
    CoachTurn.objects.create(
        argument=argument,
        user_message=said,
        assistant_message=reply,
        step="claim",
        raw_result={
            "assistantText": "Here it is.",
            "step": "warrant",
            "proposedUpdate": {"field": "warrant", "value": "RAW-VALUE"},
        },
        guarded_result={
            "assistantText": "Here it is.",
            "step": "claim",
            "proposedUpdate": {"field": "claim", "value": "RAW-VALUE"},
        },
        guard_decisions=[
            {"name": "step_coercion", "changed": True, "reason": "step warrant -> claim"}
        ],
        model="claude-sonnet-5-5",
        input_tokens=120,
        output_tokens=40,
        cost_usd="0.000640",
    )
    CoachTurn.objects.create(
        argument=argument, step="grounds", error_code="coach_stream_failed", error_detail="cut"
    )
    return argument


def test_it_lists_arguments_with_every_filter(
    instructor: Client, worked: Argument, other_student: Any
) -> None:
    create_argument(owner=other_student, title="Hers", language="es")  # two students to choose
    response = instructor.get("/admin/coach/argument/")
    assert response.status_code == 200
    body = response.content.decode()
    for parameter in (
        "owner__id__exact",
        "current_step__exact",
        "completed=",
        "language__exact",
        "created_at__gte",
    ):
        assert parameter in body
    assert worked.title in body


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("completed=no", True),
        ("completed=yes", False),
        ("current_step__exact=grounds", True),
        ("language__exact=es", False),
        ("q=downtown", True),
        ("q=ana", True),
        ("q=nobody", False),
    ],
)
def test_it_filters_and_searches(
    instructor: Client, worked: Argument, query: str, found: bool
) -> None:
    body = instructor.get(f"/admin/coach/argument/?{query}").content.decode()
    assert (f"/admin/coach/argument/{worked.pk}/change/" in body) is found


def test_it_shows_the_transcript_the_guards_and_the_provenance(
    instructor: Client, worked: Argument
) -> None:
    body = instructor.get(f"/admin/coach/argument/{worked.pk}/change/").content.decode()
    assert "Here it is." in body and "RAW-VALUE" in body
    assert "step warrant -&gt; claim" in body and "coach_stream_failed" in body
    assert "accepted" in body and "Cities should ban cars downtown." in body
    assert 'name="_save"' not in body  # read-only


def test_it_exports_the_selected_arguments_as_csv(
    instructor: Client, worked: Argument, other_student: Any
) -> None:
    finished = create_argument(owner=other_student, title="=HYPERLINK(1)", language="es")
    finished.completed_at = timezone.now()
    finished.save()
    response = instructor.post(
        "/admin/coach/argument/",
        {"action": "export_csv", "_selected_action": [worked.pk, finished.pk]},
    )
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == CSV_COLUMNS
    first, second = rows
    assert first["student"] == "ana" and first["claim"] == "Cities should ban cars downtown."
    assert first["claim_provenance"] == "accepted" and first["current_step"] == "grounds"
    assert (first["messages"], first["turns"], first["failed_turns"]) == ("2", "2", "1")
    assert first["cost_usd"] == "0.000640"
    assert second["title"] == "'=HYPERLINK(1)" and second["completed_at"]


def test_it_lists_turns_with_their_costs_and_failures(instructor: Client, worked: Argument) -> None:
    body = instructor.get("/admin/coach/coachturn/?error_code=coach_stream_failed").content.decode()
    assert "coach_stream_failed" in body
    turn = CoachTurn.objects.exclude(error_code="").get()
    detail = instructor.get(f"/admin/coach/coachturn/{turn.pk}/change/")
    assert detail.status_code == 200


def test_it_keeps_students_out(student: Any) -> None:
    client = Client()
    client.force_login(student)
    assert client.get("/admin/coach/argument/").status_code == 302
