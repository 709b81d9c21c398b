"""A student hands in an argument begun from "Start an argument" for an assignment."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from classroom.models import Submission
from classroom.services import start_submission
from coach.services import create_argument

pytestmark = pytest.mark.django_db


def _post(user: Any, assignment: Any, argument_id: Any, *, csrf: bool = False) -> Any:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client.post(f"/assignments/{assignment.pk}/hand-in/", {"argument": argument_id})


def test_it_hands_in_the_students_own_argument_and_puts_it_on_the_grid(
    student: Any, teacher: Any, assignment: Any
) -> None:
    argument = create_argument(owner=student, title="Cars out of the centre", language="en")
    client = Client()
    client.force_login(student)
    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    assert "Or hand in an argument you already started" in page
    assert "Cars out of the centre" in page

    response = _post(student, assignment, argument.pk)

    assert response.status_code == 302
    assert response["Location"] == f"/coach/{argument.pk}/"
    assert Submission.objects.get(assignment=assignment, student=student).argument == argument
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/")
    assert grid.context["rows"][0].submission.argument == argument


def test_it_refuses_someone_elses_argument(
    student: Any, other_student: Any, assignment: Any
) -> None:
    theirs = create_argument(owner=other_student, title="Not yours", language="en")
    response = _post(student, assignment, theirs.pk)
    assert response.status_code == 302
    assert not Submission.objects.exists()


@pytest.mark.parametrize("value", ["", "abc", "99999999999999999999999", "-1"])
def test_it_refuses_a_choice_that_is_not_an_argument(
    student: Any, assignment: Any, value: str
) -> None:
    response = _post(student, assignment, value)
    assert response.status_code == 302
    assert not Submission.objects.exists()


def test_it_refuses_a_second_hand_in_and_an_argument_already_handed_in(
    student: Any, assignment: Any, classroom: Any, teacher: Any
) -> None:
    started = start_submission(assignment=assignment, student=student)
    spare = create_argument(owner=student, title="Spare", language="en")
    assert _post(student, assignment, spare.pk).status_code == 302
    assert Submission.objects.get(assignment=assignment, student=student) == started

    other = assignment.__class__.objects.create(
        classroom=classroom, title="Second", prompt="Trams?", created_by=teacher
    )
    # The argument that is already this assignment's work cannot be another's too.
    assert _post(student, other, started.argument_id).status_code == 302
    assert not Submission.objects.filter(assignment=other).exists()


def test_it_refuses_a_hand_in_after_the_due_date(student: Any, assignment: Any) -> None:
    assignment.due_at = timezone.now() - timedelta(hours=1)
    assignment.save(update_fields=["due_at"])
    argument = create_argument(owner=student, title="Late", language="en")
    client = Client()
    client.force_login(student)
    response = client.post(
        f"/assignments/{assignment.pk}/hand-in/", {"argument": argument.pk}, follow=True
    )
    assert "past its due date" in response.content.decode()
    assert not Submission.objects.exists()


def test_it_needs_membership_and_csrf(student: Any, other_student: Any, assignment: Any) -> None:
    mine = create_argument(owner=other_student, title="Outsider", language="en")
    assert _post(other_student, assignment, mine.pk).status_code == 404
    own = create_argument(owner=student, title="Mine", language="en")
    assert _post(student, assignment, own.pk, csrf=True).status_code == 403
    assert not Submission.objects.exists()


def test_it_offers_no_hand_in_once_the_assignment_has_work(student: Any, assignment: Any) -> None:
    create_argument(owner=student, title="Spare", language="en")
    start_submission(assignment=assignment, student=student)
    client = Client()
    client.force_login(student)
    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    assert "hand-in" not in page


def test_it_tells_apart_arguments_of_one_title_by_date_and_status(
    student: Any, assignment: Any
) -> None:
    from coach.models import Argument

    first = create_argument(owner=student, title="Later school start", language="en")
    second = create_argument(owner=student, title="Later school start", language="en")
    Argument.objects.filter(pk=first.pk).update(
        updated_at=timezone.now() - timedelta(days=3), completed_at=timezone.now()
    )
    client = Client()
    client.force_login(student)
    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    options = re_options(page)
    labels = [options[str(first.pk)], options[str(second.pk)]]
    assert len(set(labels)) == 2 and all(
        label.startswith("Later school start — ") for label in labels
    )
    assert labels[0].endswith("complete") and "in progress, at Claim" in labels[1]
    # The newest first.
    assert list(options) == [str(second.pk), str(first.pk)]


def re_options(page: str) -> dict[str, str]:
    import re
    from html import unescape

    return {
        value: unescape(label).strip()
        for value, label in re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', page)
    }
