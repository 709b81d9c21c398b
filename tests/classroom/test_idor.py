"""Every classroom URL as its owner, another student, another instructor and anonymous."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from classroom.models import Membership
from classroom.services import start_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(
    teacher: Any, other_teacher: Any, student: Any, other_student: Any, assignment: Any
) -> dict[str, Any]:
    submission = start_submission(assignment=assignment, student=student)
    # The other student is in another teacher's class: a member somewhere, not here.
    from classroom.models import Classroom

    elsewhere = Classroom.objects.create(name="Elsewhere")
    elsewhere.instructors.add(other_teacher)
    Membership.objects.create(classroom=elsewhere, student=other_student)
    return {
        "a": assignment.pk,
        "c": assignment.classroom_id,
        "s": submission.pk,
        "arg": submission.argument_id,
        "users": {
            "student": student,
            "teacher": teacher,
            "other_student": other_student,
            "other_teacher": other_teacher,
            "anonymous": None,
        },
    }


STUDENT_URLS = [
    ("get", "/assignments/{a}/"),
    ("post", "/assignments/{a}/start/"),
]
ARGUMENT_URLS = [
    ("post", "/coach/{arg}/advance/"),
    ("post", "/api/arguments/{arg}/advance"),
]
ADMIN_URLS = [
    ("get", "/admin/classroom/classroom/{c}/change/"),
    ("get", "/admin/classroom/classroom/{c}/history/"),
    ("get", "/admin/classroom/classroom/{c}/add-students/"),
    ("get", "/admin/classroom/classroom/{c}/analytics/"),
    ("post", "/admin/classroom/classroom/{c}/add-students/"),
    ("get", "/admin/classroom/assignment/{a}/change/"),
    ("get", "/admin/classroom/assignment/{a}/grid/"),
    ("get", "/admin/classroom/assignment/{a}/grid.csv"),
    ("get", "/admin/classroom/assignment/{a}/analytics/"),
    ("get", "/admin/classroom/assignment/{a}/work/{s}/"),
    ("get", "/admin/classroom/submission/{s}/change/"),
]


def _call(user: Any, method: str, url: str) -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    if method == "get":
        return client.get(url)
    return client.post(url, data=json.dumps({"lines": "bea"}), content_type="application/json")


@pytest.mark.parametrize(("method", "url"), STUDENT_URLS + ARGUMENT_URLS)
def test_it_shows_a_students_pages_only_to_the_student(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    assert _call(users["student"], method, url).status_code in (200, 302, 400)
    for who in ("other_student", "teacher", "other_teacher"):
        # An instructor reads the work in the admin, not through the student's pages.
        assert _call(users[who], method, url).status_code == 404, who
    anonymous = _call(None, method, url)
    assert anonymous.status_code in (302, 401)
    if anonymous.status_code == 302:
        assert "/login" in anonymous["Location"]


@pytest.mark.parametrize(("method", "url"), ADMIN_URLS)
def test_it_shows_a_class_only_to_its_instructors(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    assert _call(users["teacher"], method, url).status_code == 200
    assert _call(users["other_teacher"], method, url).status_code == 404
    for who in ("student", "other_student", "anonymous"):
        response = _call(users[who], method, url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], who


def test_it_adds_nobody_to_a_class_through_another_instructors_form(world: dict) -> None:
    client = Client()
    client.force_login(world["users"]["other_teacher"])
    url = "/admin/classroom/classroom/{c}/add-students/".format(**world)
    assert client.post(url, {"lines": "bea"}).status_code == 404
    assert not Membership.objects.filter(classroom_id=world["c"], student__username="bea").exists()


def test_it_refuses_every_classroom_post_without_csrf(world: dict) -> None:
    for who, method_url in (
        ("student", "/assignments/{a}/start/"),
        ("student", "/coach/{arg}/advance/"),
        ("teacher", "/admin/classroom/classroom/{c}/add-students/"),
    ):
        client = Client(enforce_csrf_checks=True)
        client.force_login(world["users"][who])
        assert client.post(method_url.format(**world), {"lines": "bea"}).status_code == 403
