from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from classroom.models import AssignmentExtension, Submission

pytestmark = pytest.mark.django_db


def test_it_starts_the_argument_from_the_assignment_once(
    client: Any, student: Any, assignment: Any
) -> None:
    client.force_login(student)
    first = client.post(f"/assignments/{assignment.pk}/start/")
    second = client.post(f"/assignments/{assignment.pk}/start/")
    submission = Submission.objects.get(assignment=assignment, student=student)
    assert first["Location"] == second["Location"] == f"/coach/{submission.argument_id}/"
    argument = submission.argument
    assert argument.title == assignment.prompt and argument.owner == student
    assert argument.language == assignment.language


def test_it_shows_an_assignment_only_to_the_class(
    client: Any, student: Any, other_student: Any, assignment: Any
) -> None:
    client.force_login(other_student)
    assert client.get(f"/assignments/{assignment.pk}/").status_code == 404
    assert client.post(f"/assignments/{assignment.pk}/start/").status_code == 404
    assert not Submission.objects.exists()
    client.force_login(student)
    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    assert "Should city centres be car-free?" in page


def test_it_does_not_start_a_closed_assignment_unless_extended(
    client: Any, student: Any, assignment: Any
) -> None:
    assignment.due_at = timezone.now() - timedelta(hours=1)
    assignment.save()
    client.force_login(student)
    response = client.post(f"/assignments/{assignment.pk}/start/", follow=True)
    assert not Submission.objects.exists()
    assert "past its due date" in response.content.decode()
    AssignmentExtension.objects.create(
        assignment=assignment, student=student, due_at=timezone.now() + timedelta(days=1)
    )
    client.post(f"/assignments/{assignment.pk}/start/")
    assert Submission.objects.filter(student=student).exists()


def test_it_shows_the_required_criteria_in_the_assignments_language(
    client: Any, student: Any, assignment: Any
) -> None:
    assignment.language = "es"
    assignment.required_criteria = {"grounds": ["grounds_has_number_or_citation"]}
    assignment.save()
    client.force_login(student)
    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    assert "Los datos contienen un número o una cita" in page
