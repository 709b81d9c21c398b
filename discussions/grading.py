"""A discussion as an assignment: its assignment row, each student's submission and figures.

A graded discussion has an `classroom.Assignment` of kind "discussion": it is
on the class's list of assignments, the progress grid links to this
discussion's grid, and the rubric, scores and release of `feedback` work on
each student's `Submission` (one with no coach argument: the work is the
student's posts). The discussion stays the one place its title, thesis and
closing time are edited; `sync_assignment` copies them over.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import get_language

from argumentation.schemes import SCHEMES
from classroom.models import Assignment, AssignmentKind, Membership, Submission
from discussions.models import Discussion, Post, PostKind
from discussions.standing import Standing, Status

__all__ = [
    "StudentRow",
    "ensure_submission",
    "question_text",
    "student_rows",
    "sync_assignment",
]


def sync_assignment(*, discussion: Discussion, graded: bool, author: Any = None) -> None:
    """Make (or keep in step) the discussion's assignment when it is graded.

    Once made, the assignment stays even if `graded` is later false: it may
    hold scores and releases, and only deleting it (in the assignments'
    admin) should take them away.
    """
    assignment = discussion.assignment
    if assignment is None and not graded:
        return
    language = "es" if (get_language() or "en").startswith("es") else "en"
    values = {
        "classroom": discussion.classroom,
        "title": discussion.title,
        "prompt": discussion.thesis,
        "due_at": discussion.due_at,
    }
    if assignment is None:
        assignment = Assignment.objects.create(
            kind=AssignmentKind.DISCUSSION, language=language, created_by=author, **values
        )
        discussion.assignment = assignment
        discussion.save(update_fields=["assignment"])
    else:
        for name, value in values.items():
            setattr(assignment, name, value)
        assignment.save(update_fields=list(values))
    # Students who posted before it was graded have work to grade too.
    members = Membership.objects.filter(classroom=discussion.classroom).values("student_id")
    posters = set(
        discussion.posts.filter(author_id__in=members).values_list("author_id", flat=True)
    )
    have = set(assignment.submissions.values_list("student_id", flat=True))
    Submission.objects.bulk_create(
        [Submission(assignment=assignment, student_id=pk) for pk in posters - have],
        ignore_conflicts=True,
    )


def ensure_submission(*, discussion: Discussion, student: Any) -> Submission | None:
    """The student's submission for a graded discussion, made at their first post."""
    if discussion.assignment_id is None:
        return None
    if not Membership.objects.filter(
        classroom_id=discussion.classroom_id, student=student
    ).exists():
        return None  # an instructor's post is not work to grade
    found = Submission.objects.filter(assignment_id=discussion.assignment_id, student=student)
    if (existing := found.first()) is not None:
        return existing
    try:
        with transaction.atomic():
            return Submission.objects.create(
                assignment_id=discussion.assignment_id, student=student
            )
    except IntegrityError:  # two posts at the same moment: the first one made it
        return found.first()


def question_text(scheme_code: str, question_code: str, language: str) -> str:
    """A critical question in words, or its code when the scheme no longer has it."""
    for scheme in SCHEMES:
        if scheme.code == scheme_code:
            for question in scheme.questions:
                if question.code == question_code:
                    return question.question[language]
    return question_code


@dataclass
class StudentRow:
    """One student's part in a discussion, as the grid and the work view show it."""

    student: Any
    team: str = ""
    arguments: int = 0
    objections: int = 0
    standing: int = 0  # their visible posts that stand now (at the end, once closed)
    hidden: int = 0
    replies: int = 0  # visible objections by classmates to their posts
    questions: list[str] = field(default_factory=list)  # the critical questions they used
    submission: Submission | None = None
    released: bool = False

    @property
    def posts(self) -> int:
        return self.arguments + self.objections


def student_rows(
    *, discussion: Discussion, posts: list[Post], standing: Standing, language: str
) -> list[StudentRow]:
    """A row per student of the class (by username), with what they posted and what stands.

    Counts follow what the semantics count: a hidden post is neither standing
    nor a reply (it is counted under `hidden`); an instructor's posts are in
    no row.
    """
    students = [
        m.student
        for m in Membership.objects.filter(classroom_id=discussion.classroom_id)
        .select_related("student")
        .order_by("student__username")
    ]
    rows = {s.pk: StudentRow(student=s) for s in students}
    teams = dict(discussion.teams.values_list("student_id", "team"))
    by_id = {p.pk: p for p in posts}
    used: dict[int, Counter] = {pk: Counter() for pk in rows}
    for post in posts:
        row = rows.get(post.author_id)
        if row is not None:
            if post.hidden:
                row.hidden += 1
            else:
                if post.kind == PostKind.ARGUMENT:
                    row.arguments += 1
                else:
                    row.objections += 1
                state = standing.posts.get(post.pk)
                if state is not None and state.status == Status.STANDS:
                    row.standing += 1
                target = by_id.get(post.target_id) if post.target_id else None
                if post.question_code and target is not None:
                    used[post.author_id][
                        question_text(target.scheme, post.question_code, language)
                    ] += 1
        target = by_id.get(post.target_id) if post.target_id else None
        owner = rows.get(target.author_id) if target is not None else None
        # A reply is a classmate's objection (docs/discussions.md): not the author's own,
        # and not the instructor's, who is in no row.
        classmate = post.author_id in rows and target is not None
        if (
            owner is not None
            and classmate
            and not post.hidden
            and target.author_id != post.author_id
        ):
            owner.replies += 1
    if discussion.assignment_id is not None:
        for submission in Submission.objects.filter(
            assignment_id=discussion.assignment_id
        ).select_related("release"):
            if (row := rows.get(submission.student_id)) is not None:
                row.submission = submission
                row.released = hasattr(submission, "release")
    for pk, row in rows.items():
        row.team = teams.get(pk, "")
        row.questions = sorted(used[pk])
    return list(rows.values())
