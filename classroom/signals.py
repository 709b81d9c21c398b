"""Keep the Instructors group after every migrate (its permissions exist by then)."""

from __future__ import annotations

from typing import Any


def instructors_group_after_migrate(**kwargs: Any) -> None:
    from classroom.services import ensure_instructors_group

    ensure_instructors_group()
