"""A student's work for an assignment of a class, set up in one call."""

from __future__ import annotations

from typing import Any

from classroom.models import Assignment, Classroom, Membership
from classroom.services import start_submission

__all__ = ["work_for_an_assignment"]


def work_for_an_assignment(
    *, teacher: Any, student: Any, class_name: str = "Rhetoric 101", **assignment: Any
) -> Any:
    """The student's argument for a new assignment (`assignment`: its fields) of a new class
    that `teacher` teaches and `student` belongs to."""
    room = Classroom.objects.create(name=class_name)
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=student)
    task = Assignment.objects.create(classroom=room, created_by=teacher, **assignment)
    return start_submission(assignment=task, student=student).argument
