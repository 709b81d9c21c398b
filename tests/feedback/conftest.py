from __future__ import annotations

from typing import Any

import pytest

from classroom.models import Assignment, Classroom, Membership, Submission
from classroom.services import make_instructor, start_submission


@pytest.fixture
def teacher(django_user_model: Any) -> Any:
    return make_instructor(user=django_user_model.objects.create_user("teacher", password="pw"))


@pytest.fixture
def other_teacher(django_user_model: Any) -> Any:
    user = django_user_model.objects.create_user("other_teacher", password="pw")
    return make_instructor(user=user)


@pytest.fixture
def student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", password="pw")


@pytest.fixture
def other_student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bea", password="pw")


@pytest.fixture
def classroom(teacher: Any, student: Any, other_student: Any) -> Classroom:
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=student)
    Membership.objects.create(classroom=room, student=other_student)
    return room


@pytest.fixture
def assignment(classroom: Classroom, teacher: Any) -> Assignment:
    return Assignment.objects.create(
        classroom=classroom, title="City centres", prompt="Car-free centres?", created_by=teacher
    )


@pytest.fixture
def submission(assignment: Assignment, student: Any) -> Submission:
    sub = start_submission(assignment=assignment, student=student)
    sub.argument.warrant = "Cars <b>pollute</b>"
    sub.argument.save()
    return sub


@pytest.fixture
def other_submission(assignment: Assignment, other_student: Any) -> Submission:
    return start_submission(assignment=assignment, student=other_student)
