"""The database connections open to the test database besides the test's own (PostgreSQL)."""

from __future__ import annotations

import time

import pytest
from django.db import connection

__all__ = ["other_backends", "settles_to"]


def other_backends() -> int:
    """Connections to this database other than this one (PostgreSQL's pg_stat_activity)."""
    if connection.vendor != "postgresql":
        pytest.skip("counting a database's connections needs PostgreSQL (DATABASE_URL)")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def settles_to(at_most: int, *, limit: float = 10.0) -> int:
    """The count once it is at most `at_most` (the last one seen if it never is, by `limit`)."""
    deadline = time.monotonic() + limit
    while (seen := other_backends()) > at_most and time.monotonic() < deadline:
        time.sleep(0.05)
    return seen
