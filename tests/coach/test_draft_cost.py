"""What a draft read and the coaching page cost: a budget of queries that a query per
message or per turn (an N+1) goes over, and the class's rules still applied."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom.models import CoachPolicy
from coach.models import Argument
from tests.coach.support import class_work, say_earlier

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


# The session and its user (at most two), the argument, its class's rules (the submission
# with its assignment, the student's extension and the quota's count, in one query).
DRAFT_BUDGET = 4
# The coaching page: the draft's, the transcript, whether the coach spoke on the step yet,
# the student's latest words on it (the own-words box of a hints-only class).
PAGE_BUDGET = DRAFT_BUDGET + 3


def _statements(client: Client, url: str, statements: list[str]) -> list[str]:
    client.get(url)  # the session's first request may read its user apart
    statements.clear()
    response = client.get(url)
    assert response.status_code == 200
    return list(statements)


def test_it_reads_a_class_draft_within_its_budget(
    student: Any, django_user_model: Any, statements: list[str]
) -> None:
    work = _class_work(student, django_user_model)
    say_earlier(work, 30)
    seen = _statements(_signed_in(student), f"/api/arguments/{work.pk}", statements)
    assert len(seen) <= DRAFT_BUDGET, "\n".join(seen)


@pytest.mark.parametrize("policy", [CoachPolicy.COACH, CoachPolicy.HINTS_ONLY])
def test_it_shows_a_long_transcript_in_as_many_queries_as_a_short_one(
    student: Any, django_user_model: Any, statements: list[str], policy: str
) -> None:
    teacher = django_user_model.objects.create_user("teacher")
    short = class_work(student=student, teacher=teacher, coach_policy=policy)
    long = class_work(student=student, teacher=teacher, coach_policy=policy, class_name="B")
    say_earlier(short, 3)
    say_earlier(long, 30)
    client = _signed_in(student)

    on_short = _statements(client, f"/coach/{short.pk}/", statements)
    on_long = _statements(client, f"/coach/{long.pk}/", statements)

    assert len(on_long) == len(on_short), "\n".join(on_long)
    assert len(on_long) <= PAGE_BUDGET, "\n".join(on_long)


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
    # The ORM's lookup knows the column's range: such an id finds nothing, as a missing one.
    client = _signed_in(student)
    url = f"/api/arguments/{argument_id}{ending}"
    response = client.get(url) if not ending else client.post(url, {}, "application/json")
    assert response.status_code == 404
