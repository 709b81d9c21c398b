"""What a user's own page shows of their classes, as a student and as an instructor:
read-only shaping, no writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.utils import timezone
from django.utils.translation import get_language

from classroom.models import Assignment, Classroom, Submission

__all__ = [
    "AssignmentRow",
    "ClassCard",
    "TaughtAssignment",
    "TaughtClass",
    "assignment_row",
    "page_language",
    "student_classes",
    "taught_classes",
]


def page_language() -> str:
    """The page's language as the coach's step labels know it: "es" or "en"."""
    return "es" if (get_language() or "en").startswith("es") else "en"


@dataclass(frozen=True, slots=True)
class AssignmentRow:
    assignment: Assignment
    due_at: datetime | None
    closed: bool
    submission: Submission | None


@dataclass(frozen=True, slots=True)
class ClassCard:
    classroom: Classroom
    assignments: list[AssignmentRow]


def assignment_row(
    assignment: Assignment, *, student: Any | None, submission: Submission | None
) -> AssignmentRow:
    """`student`'s row (their extension's due date if any); with no student, the class's
    row, as an instructor's preview shows it (extensions are per student)."""
    due = assignment.due_at if student is None else assignment.due_for(student)
    return AssignmentRow(
        assignment=assignment,
        due_at=due,
        closed=due is not None and timezone.now() > due,
        submission=submission,
    )


def student_classes(student: Any) -> list[ClassCard]:
    """The classes `student` belongs to, each with its assignments and the student's work."""
    if not getattr(student, "is_authenticated", False):
        return []
    classes = list(Classroom.objects.filter(memberships__student=student).order_by("name"))
    assignments = Assignment.objects.filter(classroom__in=classes).order_by("due_at", "id")
    mine = {
        s.assignment_id: s
        for s in Submission.objects.filter(
            student=student, assignment__in=assignments
        ).select_related("argument")
    }
    by_class: dict[int, list[AssignmentRow]] = {c.pk: [] for c in classes}
    # A class discussion's row links to the discussion (the reverse one-to-one, read here).
    for assignment in assignments.prefetch_related("extensions").select_related("discussion"):
        by_class[assignment.classroom_id].append(
            assignment_row(assignment, student=student, submission=mine.get(assignment.pk))
        )
    return [ClassCard(classroom=c, assignments=by_class[c.pk]) for c in classes]


@dataclass(frozen=True, slots=True)
class TaughtAssignment:
    assignment: Assignment
    started: int  # students who have started their work on it


@dataclass(frozen=True, slots=True)
class TaughtClass:
    classroom: Classroom
    students: int
    assignments: list[TaughtAssignment]


def taught_classes(user: Any) -> list[TaughtClass]:
    """The classes `user` is an instructor of (a superuser's too: only their own, not
    every class of the site), each with its students counted and its assignments with
    how many students have started them. Three statements, however many classes."""
    if not getattr(user, "is_authenticated", False):
        return []
    classes = list(
        Classroom.objects.filter(instructors=user)
        .annotate(student_count=Count("memberships", distinct=True))
        .order_by("name", "id")
    )
    by_class: dict[int, list[TaughtAssignment]] = {c.pk: [] for c in classes}
    assignments = (
        Assignment.objects.filter(classroom__in=classes)
        .annotate(started=Count("submissions", distinct=True))
        .order_by("due_at", "id")
    )
    for assignment in assignments:
        by_class[assignment.classroom_id].append(
            TaughtAssignment(assignment=assignment, started=assignment.started)
        )
    return [
        TaughtClass(classroom=c, students=c.student_count, assignments=by_class[c.pk])
        for c in classes
    ]
