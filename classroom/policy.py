"""The coach policy of an argument written for an assignment (registered in apps.ready)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections, router
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.criteria import criterion, failed_criteria, parse_required
from classroom.models import Assignment, AssignmentExtension, CoachPolicy, Submission
from coach.models import CoachTurn
from coach.policy import Policy
from config.sql_rows import columns, convert, from_row

__all__ = ["turn_policy"]


@cache
def _rules_sql(alias: str, vendor: str) -> str:
    """The argument's assignment (through its submission), this student's extension (unique
    per assignment and student) and, under a turn quota, the turns that count against it."""
    quote = connections[alias].ops.quote_name
    submission, assignment = Submission._meta, Assignment._meta
    extension, turn = AssignmentExtension._meta, CoachTurn._meta

    def col(table: str, meta: Any, name: str) -> str:
        return f"{quote(table)}.{quote(meta.get_field(name).column)}"

    return (
        f"SELECT {columns(Assignment, alias, 'a')}, "
        f"{col('e', extension, 'due_at')}, "
        f"CASE WHEN {col('a', assignment, 'turn_quota')} IS NULL THEN NULL ELSE ("
        f"SELECT COUNT(*) FROM {quote(turn.db_table)} {quote('t')} "
        f"WHERE {col('t', turn, 'argument')} = {col('s', submission, 'argument')} "
        f"AND {col('t', turn, 'error_code')} = %s) END "
        f"FROM {quote(submission.db_table)} {quote('s')} "
        f"JOIN {quote(assignment.db_table)} {quote('a')} "
        f"ON {quote('a')}.{quote(assignment.pk.column)} = {col('s', submission, 'assignment')} "
        f"LEFT JOIN {quote(extension.db_table)} {quote('e')} "
        f"ON {col('e', extension, 'assignment')} = {col('s', submission, 'assignment')} "
        f"AND {col('e', extension, 'student')} = {col('s', submission, 'student')} "
        f"WHERE {col('s', submission, 'argument')} = %s"
    )


@dataclass(frozen=True, slots=True)
class _Rules:
    assignment: Assignment
    due: Any  # this student's due date: their extension's, else the assignment's
    turns_used: int | None  # the turns counted against the quota (None: no quota)


def _rules(argument_id: int) -> _Rules | None:
    """What the argument's assignment asks of this student, in one statement written once.

    ``Submission.objects.select_related("assignment")``, ``Assignment.due_for`` and
    the quota's count as SQL built once (coach.turn_sql says why): this runs on every
    coach turn in a class, and compiling the three cost more CPU than the rest of the
    turn's reads together.
    """
    alias = router.db_for_read(Submission)
    with connections[alias].cursor() as cursor:
        cursor.execute(_rules_sql(alias, connections[alias].vendor), ["", argument_id])
        row = cursor.fetchone()  # the argument is one-to-one with its submission
    if row is None:
        return None
    last = len(Assignment._meta.concrete_fields)
    assignment = from_row(Assignment, alias, row[:last])
    (extended,) = convert(
        AssignmentExtension, alias, [AssignmentExtension._meta.get_field("due_at")], [row[last]]
    )
    return _Rules(
        assignment=assignment,
        due=extended if extended is not None else assignment.due_at,
        turns_used=row[last + 1],
    )


def turn_policy(argument: Any) -> Policy | None:
    """None for an argument written outside any assignment."""
    rules = _rules(argument.pk)
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
