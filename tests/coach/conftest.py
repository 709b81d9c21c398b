from __future__ import annotations

from typing import Any

import pytest

from coach.services import create_argument


@pytest.fixture
def student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana")  # no password: hashing one costs a second


@pytest.fixture
def other_student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bea")


@pytest.fixture
def argument(student: Any) -> Any:
    return create_argument(owner=student, title="Car-free city centres", language="en")


@pytest.fixture
def spanish_argument(student: Any) -> Any:
    return create_argument(owner=student, title="Centros sin coches", language="es")
