from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from classroom.models import Assignment, Classroom, Membership
from classroom.services import make_instructor


@pytest.fixture(autouse=True)
def _fresh_join_counts() -> None:
    """Join attempts are counted per user id in the cache; ids come back between tests."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def teacher(django_user_model: Any) -> Any:
    return make_instructor(user=django_user_model.objects.create_user("teacher"))


@pytest.fixture
def other_teacher(django_user_model: Any) -> Any:
    return make_instructor(user=django_user_model.objects.create_user("other_teacher"))


@pytest.fixture
def student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", email="ana@example.org")


@pytest.fixture
def other_student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bea", email="bea@example.org")


@pytest.fixture
def classroom(teacher: Any, student: Any) -> Classroom:
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=student)
    return room


@pytest.fixture
def assignment(classroom: Classroom, teacher: Any) -> Assignment:
    return Assignment.objects.create(
        classroom=classroom,
        title="City centres",
        prompt="Should city centres be car-free?",
        due_at=timezone.now() + timedelta(days=7),
        coach_policy="coach",
        created_by=teacher,
    )
