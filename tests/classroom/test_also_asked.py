"""An assignment that also asks for a trial and a stress test: the student's page and the grid."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from classroom.models import Assignment
from classroom.services import start_submission
from trials.models import Trial

pytestmark = pytest.mark.django_db


@pytest.fixture
def asking(assignment: Assignment) -> Assignment:
    assignment.asks_trial = True
    assignment.asks_stress_test = True
    assignment.save()
    return assignment


def test_it_tells_the_student_what_else_is_asked_before_they_start(
    client: Client, student: Any, asking: Assignment
) -> None:
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert "Your instructor also asks for" in page
    assert "A trial of your argument" in page and "A stress test of your argument" in page


def test_it_offers_the_trial_and_stress_test_once_the_argument_is_complete(
    client: Client, student: Any, asking: Assignment
) -> None:
    argument = start_submission(assignment=asking, student=student).argument
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert page.count("You can start it once your argument is complete.") == 2
    argument.completed_at = timezone.now()
    argument.save()
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert f'action="/trials/argument/{argument.pk}/"' in page
    assert f'href="/arguments/{argument.pk}/stress/"' in page


def test_it_shows_the_latest_trial_to_the_student_and_in_the_grid(
    client: Client, student: Any, teacher: Any, asking: Assignment
) -> None:
    argument = start_submission(assignment=asking, student=student).argument
    Trial.objects.create(owner=student, argument=argument, query="q", status="failed")
    trial = Trial.objects.create(owner=student, argument=argument, query="q", status="overruled")
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert "overruled" in page and f'href="/trials/{trial.pk}/"' in page
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{asking.pk}/grid/").content.decode()
    assert '<td class="asked-trial"><strong>overruled</strong></td>' in grid
    assert '<td class="asked-stress">not started yet</td>' in grid
    csv_text = client.get(f"/admin/classroom/assignment/{asking.pk}/grid.csv").content.decode()
    header, row = csv_text.splitlines()[:2]
    assert header.endswith(",trial,stress_test") and row.endswith(",overruled,not started yet")


def test_it_adds_no_columns_when_nothing_else_is_asked(
    client: Client, student: Any, teacher: Any, assignment: Assignment
) -> None:
    start_submission(assignment=assignment, student=student)
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/").content.decode()
    assert "asked-trial" not in grid and "asked-stress" not in grid
    client.force_login(student)
    assert "also asks for" not in client.get(f"/assignments/{assignment.pk}/").content.decode()
