"""GET /assignments/<id>/preview/: an assignment's page as the class sees it, for its instructors."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from classroom.models import Assignment, Submission

pytestmark = pytest.mark.django_db


def _preview(client: Any, assignment: Assignment, **extra: Any) -> Any:
    return client.get(f"/assignments/{assignment.pk}/preview/", **extra)


def test_it_shows_an_instructor_what_the_class_sees_before_starting(
    client: Any, teacher: Any, assignment: Assignment
) -> None:
    assignment.turn_quota = 12
    assignment.required_criteria = {"grounds": ["grounds_has_number_or_citation"]}
    assignment.save()
    client.force_login(teacher)
    response = _preview(client, assignment)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Preview." in page and "This is the page your students see" in page
    assert "Should city centres be car-free?" in page  # what to argue
    assert "at most 12 turns" in page and "What your instructor requires" in page
    assert "may propose text you confirm" in page  # the coach's rules, as students read them
    # The start button is shown as students see it, and does nothing here.
    assert 'class="big" disabled' in page
    assert f"/assignments/{assignment.pk}/start/" not in page
    assert "hand-in" not in page
    assert not Submission.objects.exists()


def test_it_links_the_grid_for_an_instructor_who_may_open_the_admin(
    client: Any, teacher: Any, assignment: Assignment
) -> None:
    client.force_login(teacher)
    page = _preview(client, assignment).content.decode()
    assert teacher.is_staff  # make_instructor gives the admin
    assert f"/admin/classroom/assignment/{assignment.pk}/grid/" in page


def test_it_is_a_404_for_anyone_who_does_not_teach_the_class(
    client: Any, other_teacher: Any, student: Any, assignment: Assignment
) -> None:
    # Another class's instructor, and the class's own student (who has the real page).
    for user in (other_teacher, student):
        client.force_login(user)
        assert _preview(client, assignment).status_code == 404
    client.logout()
    assert _preview(client, assignment).status_code == 302  # to sign in


def test_it_shows_the_class_due_date_and_says_when_it_has_passed(
    client: Any, teacher: Any, assignment: Assignment
) -> None:
    assignment.due_at = timezone.now() - timedelta(hours=1)
    assignment.save()
    client.force_login(teacher)
    page = _preview(client, assignment).content.decode()
    assert "past its due date" in page


def test_it_sends_a_class_discussion_to_the_discussion_itself(
    client: Any, teacher: Any, classroom: Any
) -> None:
    from discussions.grading import sync_assignment
    from discussions.models import Discussion

    talk = Discussion.objects.create(
        classroom=classroom, title="Cars", thesis="Car-free centres.", created_by=teacher
    )
    sync_assignment(discussion=talk, graded=True, author=teacher)
    talk.refresh_from_db()
    client.force_login(teacher)
    response = _preview(client, talk.assignment)
    assert response.status_code == 302
    assert response["Location"] == f"/discussions/{talk.pk}/"
    assert client.get(response["Location"]).status_code == 200


def test_it_speaks_the_instructors_language(
    client: Any, teacher: Any, assignment: Assignment
) -> None:
    client.force_login(teacher)
    client.cookies["django_language"] = "es"
    with translation.override("es"):
        page = _preview(client, assignment).content.decode()
    assert "Vista previa." in page
    assert "This is the page your students see" not in page


def test_it_is_linked_from_the_instructors_own_page(
    client: Any, teacher: Any, assignment: Assignment
) -> None:
    client.force_login(teacher)
    page = client.get("/me/").content.decode()
    assert f"/assignments/{assignment.pk}/preview/" in page
