"""The progress grid's shared admin frame (classroom.grid_admin) as an assignment's grid uses it."""

from __future__ import annotations

from typing import Any

import pytest

from classroom.services import start_submission

pytestmark = pytest.mark.django_db

MODEL_MENU = 'id="nav-sidebar"'


def test_it_gives_the_grid_the_whole_width_and_the_work_page_its_menu(
    client: Any, teacher: Any, student: Any, assignment: Any
) -> None:
    submission = start_submission(assignment=assignment, student=student)
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/")
    work = client.get(f"/admin/classroom/assignment/{assignment.pk}/work/{submission.pk}/")
    assert (grid.status_code, work.status_code) == (200, 200)
    assert MODEL_MENU not in grid.content.decode()
    assert MODEL_MENU in work.content.decode()


def test_it_names_the_csv_after_the_assignment(client: Any, teacher: Any, assignment: Any) -> None:
    client.force_login(teacher)
    response = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="grid-assignment-{assignment.pk}.csv"'
    )


def test_it_finds_no_work_of_a_submission_of_another_assignment(
    client: Any, teacher: Any, student: Any, assignment: Any
) -> None:
    submission = start_submission(assignment=assignment, student=student)
    client.force_login(teacher)
    url = f"/admin/classroom/assignment/{assignment.pk}/work/{submission.pk + 1}/"
    assert client.get(url).status_code == 404
