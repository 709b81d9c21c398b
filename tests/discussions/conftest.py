from __future__ import annotations

from typing import Any

import pytest

from classroom.models import Classroom, Membership
from discussions.models import Discussion
from tests.classroom.conftest import other_teacher, teacher

__all__ = ["other_teacher", "teacher"]  # the classroom's own fixtures


@pytest.fixture
def student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", first_name="Ana")


@pytest.fixture
def classmate(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ben", first_name="Ben")


@pytest.fixture
def outsider(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bea")


@pytest.fixture
def classroom(
    teacher: Any, student: Any, classmate: Any, other_teacher: Any, outsider: Any
) -> Classroom:
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=student)
    Membership.objects.create(classroom=room, student=classmate)
    # The outsider is a student of another teacher's class: a member somewhere, not here.
    elsewhere = Classroom.objects.create(name="Elsewhere")
    elsewhere.instructors.add(other_teacher)
    Membership.objects.create(classroom=elsewhere, student=outsider)
    return room


@pytest.fixture
def discussion(classroom: Classroom, teacher: Any) -> Discussion:
    return Discussion.objects.create(
        classroom=classroom,
        title="Homework",
        thesis="Homework should be abolished in primary school.",
        created_by=teacher,
    )
