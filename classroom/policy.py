"""The coach policy of an argument written for an assignment (registered in apps.ready)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections, router
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.criteria import criterion, failed_criteria, parse_required
from classroom.models import Assignment, AssignmentExtension, CoachPolicy, Submission
from coach.models import Argument, CoachTurn
from coach.policy import JoinedRead, JoinedSQL, Policy
from config.sql_rows import columns, convert, from_row

__all__ = ["RULES_WITH_THE_ARGUMENT", "turn_policy"]


def _rules_joined(alias: str, argument_pk: str) -> JoinedSQL:
    """The argument's assignment (through its submission), this student's extension (unique
    per assignment and student) and, under a turn quota, the turns that count against it:
    LEFT JOINs from the argument's row (`argument_pk`: its key column, qualified)."""
    quote = connections[alias].ops.quote_name
    submission, assignment = Submission._meta, Assignment._meta
    extension, turn = AssignmentExtension._meta, CoachTurn._meta
    s, a, e, t = (quote(f"classroom_{name}") for name in ("s", "a", "e", "t"))

    def col(table: str, meta: Any, name: str) -> str:
        return f"{table}.{quote(meta.get_field(name).column)}"

    return JoinedSQL(
        columns=(
            f"{columns(Assignment, alias, 'classroom_a')}, {col(e, extension, 'due_at')}, "
            f"CASE WHEN {col(a, assignment, 'turn_quota')} IS NULL THEN NULL ELSE ("
            f"SELECT COUNT(*) FROM {quote(turn.db_table)} {t} "
            f"WHERE {col(t, turn, 'argument')} = {col(s, submission, 'argument')} "
            f"AND {col(t, turn, 'error_code')} = %s) END"
        ),
        column_params=("",),  # the turns that count: those that did not fail
        joins=(
            f"LEFT JOIN {quote(submission.db_table)} {s} "
            f"ON {col(s, submission, 'argument')} = {argument_pk} "
            f"LEFT JOIN {quote(assignment.db_table)} {a} "
            f"ON {a}.{quote(assignment.pk.column)} = {col(s, submission, 'assignment')} "
            f"LEFT JOIN {quote(extension.db_table)} {e} "
            f"ON {col(e, extension, 'assignment')} = {col(s, submission, 'assignment')} "
            f"AND {col(e, extension, 'student')} = {col(s, submission, 'student')}"
        ),
    )


_ASSIGNMENT_COLUMNS = len(Assignment._meta.concrete_fields)
# The assignment's columns, the extension's due date, the count.
_WIDTH = _ASSIGNMENT_COLUMNS + 2
_ASSIGNMENT_PK_AT = [f.primary_key for f in Assignment._meta.concrete_fields].index(True)


@cache
def _rules_plan(alias: str, vendor: str) -> tuple[str, tuple[Any, ...]]:
    """The rules read alone, for a page: the same joins from the argument's row."""
    quote = connections[alias].ops.quote_name
    meta = Argument._meta
    pk = f"{quote(meta.db_table)}.{quote(meta.pk.column)}"
    joined = _rules_joined(alias, pk)
    sql = f"SELECT {joined.columns} FROM {quote(meta.db_table)} {joined.joins} WHERE {pk} = %s"
    return sql, (*joined.column_params, *joined.join_params)


@dataclass(frozen=True, slots=True)
class _Rules:
    assignment: Assignment
    due: Any  # this student's due date: their extension's, else the assignment's
    turns_used: int | None  # the turns counted against the quota (None: no quota)


def _rules_from(alias: str, values: Sequence[Any]) -> _Rules | None:
    """The rules from the joined columns' values; None when the argument has no assignment."""
    last = _ASSIGNMENT_COLUMNS
    if values[_ASSIGNMENT_PK_AT] is None:  # no submission: written outside any assignment
        return None
    assignment = from_row(Assignment, alias, values[:last])
    (extended,) = convert(
        AssignmentExtension, alias, [AssignmentExtension._meta.get_field("due_at")], [values[last]]
    )
    return _Rules(
        assignment=assignment,
        due=extended if extended is not None else assignment.due_at,
        turns_used=values[last + 1],
    )


def _rules(argument_id: int) -> _Rules | None:
    """What the argument's assignment asks of this student, in one statement written once.

    ``Submission.objects.select_related("assignment")``, ``Assignment.due_for`` and
    the quota's count as SQL built once (coach.turn_sql says why): compiling the three
    cost more CPU than the rest of a turn's reads together. A coach turn reads them
    with the argument instead (`RULES_WITH_THE_ARGUMENT`).
    """
    alias = router.db_for_read(Submission)
    sql, params = _rules_plan(alias, connections[alias].vendor)
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, [*params, argument_id])
        row = cursor.fetchone()
    return None if row is None else _rules_from(alias, row)


def turn_policy(argument: Any) -> Policy | None:
    """None for an argument written outside any assignment."""
    return _policy(argument, _rules(argument.pk))


def _joined_policy(argument: Any, values: Sequence[Any]) -> Policy | None:
    # The values came with the argument's row, from its database.
    return _policy(argument, _rules_from(argument._state.db, values))


# `turn_policy`'s read, joined to the coach's read of the argument (coach.policy).
RULES_WITH_THE_ARGUMENT = JoinedRead(sql=_rules_joined, width=_WIDTH, policy=_joined_policy)


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
