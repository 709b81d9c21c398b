"""The progress grid's shared admin frame (classroom.grid_admin) as a discussion's grid uses it.

A graded discussion is an assignment too: the assignment's grid, CSV, work
page and analytics answer with the discussion's own pages, and the grid's
pages take the page's whole width.
"""

from __future__ import annotations

from typing import Any

import pytest

from classroom.models import Submission
from discussions.grading import sync_assignment
from discussions.models import Discussion
from discussions.services import create_post

pytestmark = pytest.mark.django_db

MODEL_MENU = 'id="nav-sidebar"'


@pytest.fixture
def graded(discussion: Discussion, student: Any, teacher: Any) -> Submission:
    create_post(discussion=discussion, author=student, claim="c", premises=["p"], side="for")
    sync_assignment(discussion=discussion, graded=True, author=teacher)
    return Submission.objects.get(assignment_id=discussion.assignment_id, student=student)


def test_it_sends_a_discussions_assignment_pages_to_the_discussions_own(
    client: Any, graded: Submission, discussion: Discussion, student: Any, teacher: Any
) -> None:
    assignment = f"/admin/classroom/assignment/{discussion.assignment_id}"
    own = f"/admin/discussions/discussion/{discussion.pk}"
    expected = {
        f"{assignment}/grid/": f"{own}/grid/",
        f"{assignment}/grid.csv": f"{own}/grid.csv",
        f"{assignment}/analytics/": f"{own}/grid/",
        # The submission's student: the discussion's work page is by student, not by submission.
        f"{assignment}/work/{graded.pk}/": f"{own}/work/{student.pk}/",
    }
    client.force_login(teacher)
    for url, target in expected.items():
        response = client.get(url)
        assert (response.status_code, response["Location"]) == (302, target), url


def test_it_finds_no_work_of_a_submission_of_another_assignment(
    client: Any, graded: Submission, discussion: Discussion, teacher: Any
) -> None:
    client.force_login(teacher)
    url = f"/admin/classroom/assignment/{discussion.assignment_id}/work/{graded.pk + 1}/"
    assert client.get(url).status_code == 404


def test_it_gives_the_grid_and_the_work_page_the_whole_width(
    client: Any, graded: Submission, discussion: Discussion, student: Any, teacher: Any
) -> None:
    client.force_login(teacher)
    own = f"/admin/discussions/discussion/{discussion.pk}"
    change = client.get(f"{own}/change/").content.decode()
    assert MODEL_MENU in change  # the admin's other pages keep their model menu
    for url in (f"{own}/grid/", f"{own}/work/{student.pk}/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert MODEL_MENU not in response.content.decode(), url


def test_it_names_the_csv_after_the_discussion(
    client: Any, graded: Submission, discussion: Discussion, teacher: Any
) -> None:
    client.force_login(teacher)
    response = client.get(f"/admin/discussions/discussion/{discussion.pk}/grid.csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="grid-discussion-{discussion.pk}.csv"'
    )
