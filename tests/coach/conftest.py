from __future__ import annotations

from typing import Any

import pytest

from coach.services import create_argument


@pytest.fixture
def student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("ana", password="pw-ana-12345")


@pytest.fixture
def other_student(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("bea", password="pw-bea-12345")


@pytest.fixture
def argument(student: Any) -> Any:
    return create_argument(owner=student, title="Car-free city centres", language="en")


@pytest.fixture
def spanish_argument(student: Any) -> Any:
    return create_argument(owner=student, title="Centros sin coches", language="es")


