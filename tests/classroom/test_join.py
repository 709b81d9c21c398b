from __future__ import annotations

from typing import Any

import pytest

from classroom.models import Classroom, Membership
from classroom.services import JOIN_RATE

pytestmark = pytest.mark.django_db


def test_it_joins_a_class_with_its_code(client: Any, other_student: Any, classroom: Any) -> None:
    client.force_login(other_student)
    code = classroom.join_code.lower()
    response = client.post("/classes/join/", {"code": f" {code[:4]} {code[4:]} "}, follow=True)
    assert Membership.objects.filter(classroom=classroom, student=other_student).exists()
    assert "You joined Rhetoric 101." in response.content.decode()


def test_it_joins_nothing_with_a_wrong_code(
    client: Any, other_student: Any, classroom: Any
) -> None:
    client.force_login(other_student)
    response = client.post("/classes/join/", {"code": "NOPE2345"}, follow=True)
    assert not Membership.objects.filter(student=other_student).exists()
    assert "No class has the code “NOPE2345”" in response.content.decode()


def test_it_stops_guessing_after_the_rate(client: Any, other_student: Any, classroom: Any) -> None:
    client.force_login(other_student)
    for _ in range(JOIN_RATE[0]):
        client.post("/classes/join/", {"code": "WRONG234"})
    response = client.post("/classes/join/", {"code": classroom.join_code}, follow=True)
    assert not Membership.objects.filter(student=other_student).exists()
    assert "Too many attempts" in response.content.decode()


def test_it_refuses_a_join_without_csrf(other_student: Any, classroom: Any) -> None:
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(other_student)
    response = client.post("/classes/join/", {"code": classroom.join_code})
    assert response.status_code == 403
    assert not Membership.objects.filter(student=other_student).exists()


def test_it_shows_the_join_form_on_a_get(client: Any, other_student: Any) -> None:
    client.force_login(other_student)
    response = client.get("/classes/join/")
    assert response.status_code == 200
    assert 'action="/classes/join/"' in response.content.decode()
    assert 'name="code"' in response.content.decode()


def test_it_refuses_an_anonymous_join(client: Any, classroom: Any) -> None:
    assert client.get("/classes/join/").status_code == 302  # to the sign-in page
    response = client.post("/classes/join/", {"code": classroom.join_code})
    assert response.status_code == 302 and "/login" in response["Location"]
    assert Membership.objects.count() == 1


def test_it_gives_every_class_its_own_readable_code() -> None:
    codes = {Classroom.objects.create(name=f"c{i}").join_code for i in range(20)}
    assert len(codes) == 20
    assert all(len(c) == 8 and not set(c) & set("01OIL") for c in codes)


def test_it_lists_the_students_classes_on_the_dashboard(
    client: Any, student: Any, assignment: Any
) -> None:
    assignment.title = "<b>City</b> centres"
    assignment.save()
    client.force_login(student)
    page = client.get("/me/").content.decode()
    assert "Rhetoric 101" in page and "&lt;b&gt;City&lt;/b&gt; centres" in page
    assert f"/assignments/{assignment.pk}/" in page
