"""The coach policy of an argument written for an assignment (registered in apps.ready)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.criteria import criterion, failed_criteria, parse_required
from classroom.models import Assignment, AssignmentExtension, CoachPolicy, Submission
from coach.models import CoachTurn
from coach.policy import Policy

__all__ = ["turn_policy"]


@dataclass(frozen=True, slots=True)
class _Rules:
    assignment: Assignment
    due: Any  # this student's due date: their extension's, else the assignment's
    turns_used: int | None  # the turns counted against the quota (None: no quota)


def _rules(argument_id: int) -> _Rules | None:
    """What the argument's assignment asks of this student, in one query: the submission
    with its assignment, this student's extension (`Assignment.due_for`, unique per
    assignment and student) and, under a turn quota, the turns that count against it
    (those that did not fail). None when the argument has no assignment."""
    extension = AssignmentExtension.objects.filter(
        assignment=OuterRef("assignment"), student=OuterRef("student")
    ).values("due_at")[:1]
    counted = (
        CoachTurn.objects.filter(argument=OuterRef("argument"), error_code="")
        .order_by()
        .values("argument")
        .annotate(count=Count("pk"))
        .values("count")
    )
    try:
        submission = (
            Submission.objects.select_related("assignment")
            .annotate(
                extended_due=Subquery(extension),
                turns_used=Coalesce(Subquery(counted), Value(0), output_field=IntegerField()),
            )
            .get(argument_id=argument_id)
        )
    except Submission.DoesNotExist:  # written outside any assignment
        return None
    assignment = submission.assignment
    return _Rules(
        assignment=assignment,
        due=submission.extended_due if submission.extended_due is not None else assignment.due_at,
        turns_used=submission.turns_used if assignment.turn_quota is not None else None,
    )


def turn_policy(argument: Any) -> Policy | None:
    """None for an argument written outside any assignment."""
    return _policy(argument, _rules(argument.pk))


def _policy(argument: Any, rules: _Rules | None) -> Policy | None:
    if rules is None:
        return None
    assignment = rules.assignment
    locked = ""
    due = rules.due
    if due is not None and timezone.now() > due:
        locked = _(
            "This assignment was due on %(due)s, so your argument is read-only now. "
            "Ask your instructor for an extension if you need more time."
        ) % {"due": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT")}
    quota_refusal = ""
    if assignment.turn_quota is not None and (rules.turns_used or 0) >= assignment.turn_quota:
        quota_refusal = ngettext(
            "You have used the %(quota)d coach turn this assignment allows. "
            "You can still type your fields yourself.",
            "You have used all %(quota)d coach turns this assignment allows. "
            "You can still type your fields yourself.",
            assignment.turn_quota,
        ) % {"quota": assignment.turn_quota}
    required = parse_required(assignment.required_criteria)
    language = argument.language

    def check(step: str, text: str) -> list[str]:
        return [c.label(language) for c in failed_criteria(required, step=step, text=text)]

    policy = assignment.coach_policy
    summary = ""  # translated only when there is one: this runs on every turn in a class
    if policy == CoachPolicy.HINTS_ONLY:
        summary = _(
            "For this assignment the coach gives hints and asks questions, "
            "but never writes text for you."
        )
    elif policy == CoachPolicy.OFF:
        summary = _("For this assignment the coach is off: type each part yourself.")
    return Policy(
        proposals=policy == CoachPolicy.COACH,
        coach=policy != CoachPolicy.OFF,
        locked=locked,
        quota_refusal=quota_refusal,
        criteria_check=check if required else None,
        summary=summary,
        requirements={
            step: [criterion(code).label(language) for code in codes]
            for step, codes in required.items()
        },
    )
