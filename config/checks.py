"""Deployment checks of the site's own, run by ``manage.py check --deploy``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Warning, register

__all__ = ["check_database_pool"]


@register(deploy=True)
def check_database_pool(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """PostgreSQL without a connection pool: every request opens a connection of its own,
    and a class opening its pages at once can pass the server's ``max_connections``
    (``python -m benchmarks discussion_live``: 100 of 300 live pages opened without one)."""
    database = settings.DATABASES["default"]
    if not database["ENGINE"].endswith("postgresql"):
        return []
    if database.get("OPTIONS", {}).get("pool"):
        return []
    return [
        Warning(
            "PostgreSQL is used without a connection pool.",
            hint="Set DATABASE_POOL_SIZE (for example 40, below the server's "
            "max_connections): requests then wait for a connection instead of failing "
            "when many arrive at once.",
            id="argue.W001",
        )
    ]
