"""The coach policy of an argument written for an assignment (registered in apps.ready)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connections, router
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.criteria import criterion, failed_criteria, parse_required
from classroom.models import Assignment, CoachPolicy, Submission
from coach.models import CoachTurn
from coach.policy import Policy
from config.sql_rows import columns, from_row

__all__ = ["turn_policy"]


@cache
def _submission_sql(alias: str, vendor: str) -> str:
    quote = connections[alias].ops.quote_name
    submission, assignment = Submission._meta, Assignment._meta
    return (
        f"SELECT {columns(Submission, alias, 's')}, {columns(Assignment, alias, 'a')} "
        f"FROM {quote(submission.db_table)} {quote('s')} "
        f"JOIN {quote(assignment.db_table)} {quote('a')} "
        f"ON {quote('a')}.{quote(assignment.pk.column)} = "
        f"{quote('s')}.{quote(submission.get_field('assignment').column)} "
        f"WHERE {quote('s')}.{quote(submission.get_field('argument').column)} = %s"
    )


def _submission(argument_id: int) -> Submission | None:
    """The argument's submission with its assignment, in one statement written once.

    ``Submission.objects.select_related("assignment").filter(argument_id=...)`` as
    SQL built once (coach.turn_sql says why): this runs on every coach turn, and
    compiling it cost more CPU than the rest of the turn's reads together.
    """
    alias = router.db_for_read(Submission)
    with connections[alias].cursor() as cursor:
        cursor.execute(_submission_sql(alias, connections[alias].vendor), [argument_id])
        row = cursor.fetchone()  # the argument is one-to-one with its submission
    if row is None:
        return None
    split = len(Submission._meta.concrete_fields)
    submission = from_row(Submission, alias, row[:split])
    submission.assignment = from_row(Assignment, alias, row[split:])
    return submission


def turn_policy(argument: Any) -> Policy | None:
    """None for an argument written outside any assignment."""
    submission = _submission(argument.pk)
    if submission is None:
        return None
    assignment = submission.assignment
    locked = ""
    due = assignment.due_for(submission.student)
    if due is not None and timezone.now() > due:
        locked = _(
            "This assignment was due on %(due)s, so your argument is read-only now. "
            "Ask your instructor for an extension if you need more time."
        ) % {"due": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT")}
    quota_refusal = ""
    if assignment.turn_quota is not None:
        used = CoachTurn.objects.filter(argument_id=argument.pk, error_code="").count()
        if used >= assignment.turn_quota:
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
    summary = {
        CoachPolicy.COACH: "",
        CoachPolicy.HINTS_ONLY: _(
            "For this assignment the coach gives hints and asks questions, "
            "but never writes text for you."
        ),
        CoachPolicy.OFF: _("For this assignment the coach is off: type each part yourself."),
    }.get(policy, "")
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
