"""What a draft read and a move on cost: the argument read with its class's rules in one
statement (coach.turn_sql), as a turn reads them, and the rules still applied."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom.models import CoachPolicy
from coach.models import Argument
from tests.coach.support import class_work

pytestmark = pytest.mark.django_db

PROPOSAL = {"field": "claim", "value": "Cities should ban cars downtown.", "rationale": "Clear."}


def _class_work(student: Any, django_user_model: Any, **rules: Any) -> Argument:
    return class_work(
        student=student, teacher=django_user_model.objects.create_user("teacher"), **rules
    )


def _signed_in(student: Any) -> Client:
    client = Client()
    client.force_login(student)
    return client


def test_it_reads_a_class_draft_in_three_statements(
    student: Any, django_user_model: Any, statements: list[str]
) -> None:
    work = _class_work(student, django_user_model)
    client = _signed_in(student)
    client.get(f"/api/arguments/{work.pk}")
    statements.clear()
    response = client.get(f"/api/arguments/{work.pk}")
    assert response.status_code == 200
    # The session, its user, then the argument with its assignment, the student's extension
    # and the quota's count (a budget: the rules read apart would make it four).
    assert len(statements) <= 3, "\n".join(statements)


def test_it_still_hides_a_proposal_the_class_no_longer_allows(
    student: Any, django_user_model: Any
) -> None:
    work = _class_work(student, django_user_model, coach_policy=CoachPolicy.HINTS_ONLY)
    work.pending_proposal = dict(PROPOSAL)
    work.save()
    draft = _signed_in(student).get(f"/api/arguments/{work.pk}").json()
    # The rules read with the argument still decide what the draft offers.
    assert draft["pending_proposal"] is None


def test_it_shows_the_proposal_after_a_typed_field_when_the_class_allows_it(
    student: Any, django_user_model: Any
) -> None:
    work = _class_work(student, django_user_model)
    work.pending_proposal = dict(PROPOSAL)
    work.save()
    response = _signed_in(student).post(
        f"/api/arguments/{work.pk}/draft",
        data={"field": "grounds", "value": "Fewer injuries downtown."},
        content_type="application/json",
    )
    assert response.status_code == 200
    draft = response.json()
    assert draft["pending_proposal"] == PROPOSAL
    assert next(s for s in draft["steps"] if s["id"] == "grounds")["value"] == (
        "Fewer injuries downtown."
    )


def test_it_answers_not_found_for_another_students_argument(
    student: Any, django_user_model: Any, statements: list[str]
) -> None:
    other = django_user_model.objects.create_user("other")
    work = _class_work(other, django_user_model)
    assert _signed_in(student).get(f"/api/arguments/{work.pk}").status_code == 404


@pytest.mark.parametrize("argument_id", [2**31, 2**63, 10**30])
@pytest.mark.parametrize("ending", ["", "/draft", "/proposal", "/advance"])
def test_it_answers_not_found_for_an_id_past_what_the_database_holds(
    student: Any, argument_id: int, ending: str
) -> None:
    # The read is SQL of the site's own, not the ORM's lookup that knows the column's range.
    client = _signed_in(student)
    url = f"/api/arguments/{argument_id}{ending}"
    response = client.get(url) if not ending else client.post(url, {}, "application/json")
    assert response.status_code == 404
