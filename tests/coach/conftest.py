from __future__ import annotations

from typing import Any

import pytest
from django.db.backends.utils import CursorWrapper

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


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SQL statement run from now on, in any thread."""
    seen: list[str] = []
    execute = CursorWrapper.execute

    def counting(self: CursorWrapper, sql: str, params: Any = None) -> Any:
        seen.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", counting)
    return seen
