"""What the classroom does, one keyword-only function per action; views only orchestrate.

- `join_class`: a student joins with a code (rate-limited per user).
- `add_students`: an instructor adds students by username or e-mail, one per line.
- `start_submission`: a student's argument for an assignment, created once.
- `hand_in`: a student hands in an argument they started elsewhere ("Start an argument").
- `ensure_instructors_group`: the "Instructors" group and exactly its permissions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from classroom.models import Assignment, AssignmentKind, Classroom, Membership, Submission
from coach.services import create_argument
from limits import rates

__all__ = [
    "INSTRUCTOR_GROUP",
    "INSTRUCTOR_PERMISSIONS",
    "JOIN_RATE",
    "HandInRefused",
    "JoinRefused",
    "LineResult",
    "add_students",
    "ensure_instructors_group",
    "hand_in",
    "join_class",
    "make_instructor",
    "start_submission",
]

INSTRUCTOR_GROUP = "Instructors"
# (app label, codename): what an instructor needs, and no more. Classes and
# assignments are theirs to run; students' work is theirs to read, not change
# (no change or delete on submissions).
INSTRUCTOR_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("classroom", "view_classroom"),
    ("classroom", "add_classroom"),
    ("classroom", "change_classroom"),
    ("classroom", "view_membership"),
    ("classroom", "add_membership"),
    ("classroom", "delete_membership"),
    ("classroom", "view_assignment"),
    ("classroom", "add_assignment"),
    ("classroom", "change_assignment"),
    ("classroom", "view_assignmentextension"),
    ("classroom", "add_assignmentextension"),
    ("classroom", "change_assignmentextension"),
    ("classroom", "delete_assignmentextension"),
    ("classroom", "view_submission"),
    # Rubrics of their assignments (feedback/admin.py keeps them to the classes they teach).
    ("feedback", "view_rubric"),
    ("feedback", "add_rubric"),
    ("feedback", "change_rubric"),
    ("feedback", "view_criterion"),
    ("feedback", "add_criterion"),
    ("feedback", "change_criterion"),
    ("feedback", "delete_criterion"),
    # Their LMS courses, to sync a roster (lti/admin.py keeps them to their classes).
    ("lti", "view_courseclass"),
    # Class discussions (discussions/admin.py keeps them to their classes): start and
    # lock one; read posts and hide one with a reason (no add: students post).
    ("discussions", "view_discussion"),
    ("discussions", "add_discussion"),
    ("discussions", "change_discussion"),
    ("discussions", "view_post"),
    ("discussions", "change_post"),
    # Teams of their discussions (the inline keeps to the class's students).
    ("discussions", "view_teamplace"),
    ("discussions", "add_teamplace"),
    ("discussions", "change_teamplace"),
    ("discussions", "delete_teamplace"),
)
# No coach permissions: the coach's admin lists every student's work. Instructors
# read their own students' arguments through the classroom's views (the progress
# grid and the read-only argument), which are scoped to the classes they teach.

# Join attempts per user: enough for typos, too few to guess an 8-letter code.
JOIN_RATE = (10, 600)


class JoinRefused(Exception):
    """The code joins nothing; the message is a sentence for the student."""


class HandInRefused(Exception):
    """The argument was not handed in; the message is a sentence for the student."""


@dataclass(frozen=True, slots=True)
class LineResult:
    line: str
    ok: bool
    message: str


def ensure_instructors_group() -> Group:
    """Create or repair the group so it holds exactly INSTRUCTOR_PERMISSIONS."""
    group, _created = Group.objects.get_or_create(name=INSTRUCTOR_GROUP)
    query = Q(pk__in=[])
    for app_label, codename in INSTRUCTOR_PERMISSIONS:
        query |= Q(content_type__app_label=app_label, codename=codename)
    group.permissions.set(Permission.objects.filter(query))
    return group


def make_instructor(*, user: Any) -> Any:
    """Staff (to reach the admin) in the Instructors group; never a superuser."""
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(ensure_instructors_group())
    return user


def join_class(*, student: Any, code: str) -> Classroom:
    """Join the class with this code; JoinRefused (nothing joined) otherwise."""
    attempt = rates.take("classroom.join", str(student.pk), limit=JOIN_RATE[0], period=JOIN_RATE[1])
    if attempt is not None and not attempt.allowed:
        wait = (attempt.retry_at or 0) - rates.clock()
        raise JoinRefused(
            _("Too many attempts to join a class. Wait %(minutes)d minutes and try again.")
            % {"minutes": max(1, math.ceil(wait / 60))}
        )
    cleaned = "".join(code.split()).upper()
    classroom = Classroom.objects.filter(join_code=cleaned).first() if cleaned else None
    if classroom is None:
        raise JoinRefused(
            _("No class has the code “%(code)s”. Check it with your instructor and try again.")
            % {"code": code.strip()[:20]}
        )
    Membership.objects.get_or_create(classroom=classroom, student=student)
    return classroom


def add_students(*, classroom: Classroom, text: str) -> list[LineResult]:
    """Add existing accounts, one username or e-mail per line; a result per non-empty line."""
    users = get_user_model().objects
    results: list[LineResult] = []
    for raw in text.splitlines():
        line = raw.strip().strip(",;")
        if not line:
            continue
        found = list(users.filter(Q(username=line) | Q(email__iexact=line))[:2])
        if len(found) != 1:
            message = (
                _("no account has this username or e-mail")
                if not found
                else _("several accounts share this e-mail: use the username")
            )
            results.append(LineResult(line, False, message))
            continue
        _membership, created = Membership.objects.get_or_create(
            classroom=classroom, student=found[0]
        )
        message = _("added") if created else _("already in the class")
        results.append(LineResult(line, True, message))
    return results


def start_submission(*, assignment: Assignment, student: Any) -> Submission:
    """The student's argument for this assignment: created from it once, then reused.

    The prompt becomes the argument's title (the coach puts the title in
    every prompt it sends as the topic), in the assignment's language.
    """
    existing = Submission.objects.filter(assignment=assignment, student=student).first()
    if existing is not None:
        return existing
    if assignment.kind != AssignmentKind.ARGUMENT:
        raise HandInRefused(_("This assignment is a class discussion: post on its page."))
    try:
        with transaction.atomic():
            argument = create_argument(
                owner=student,
                title=(assignment.prompt.strip() or assignment.title)[:200],
                language=assignment.language,
            )
            return Submission.objects.create(
                assignment=assignment, student=student, argument=argument
            )
    except IntegrityError:  # a second click at the same moment: the first one won
        return Submission.objects.get(assignment=assignment, student=student)


def hand_in(*, assignment: Assignment, student: Any, argument: Any) -> Submission:
    """Make the student's existing argument their work for this assignment (once).

    An argument begun from "Start an argument" is nobody's assignment until
    handed in; from then on it is on the instructor's grid and the
    assignment's rules (coach policy, criteria, due date) apply to it.
    """
    if argument.owner_id != student.pk:
        raise HandInRefused(_("You can only hand in your own arguments."))
    if assignment.kind != AssignmentKind.ARGUMENT:
        raise HandInRefused(_("This assignment is a class discussion: post on its page."))
    if assignment.is_closed_for(student):
        raise HandInRefused(
            _(
                "This assignment is past its due date, so nothing can be handed in now. "
                "Ask your instructor for an extension."
            )
        )
    if Submission.objects.filter(assignment=assignment, student=student).exists():
        raise HandInRefused(
            _("You already have an argument for this assignment: open it from the assignment.")
        )
    if Submission.objects.filter(argument=argument).exists():
        raise HandInRefused(
            _("This argument is already handed in for another assignment. Choose another one.")
        )
    try:
        with transaction.atomic():
            return Submission.objects.create(
                assignment=assignment, student=student, argument=argument
            )
    except IntegrityError as error:  # a second click at the same moment: the first one won
        raise HandInRefused(
            _("You already have an argument for this assignment: open it from the assignment.")
        ) from error
