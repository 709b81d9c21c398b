"""Load the class analytics' input from the database: one `Work` per submission.

Three queries whatever the class size: the submissions with their
arguments, the coach turns (per step counts and guard decisions), and the
trials (the latest per argument). Only members' submissions count: a student
removed from the class leaves the analytics as they leave the grid.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import QuerySet

from classroom.also_asked import latest_trials
from classroom.analytics import REJECTED_BY_SCHEMA, Summary, Work, summarize
from classroom.models import Assignment, AssignmentKind, Classroom, Membership, Submission
from coach.models import CoachTurn
from coach.steps import STEPS
from trials.models import TrialStatus

__all__ = ["assignment_summary", "classroom_summary", "works_for"]

# The `name` each guard of coach.guards.GUARDS records, in the order they run
# (tests/classroom/test_analytics.py checks there is one per guard).
GUARD_ORDER: tuple[str, ...] = (
    "step_coercion",
    "empty_value",
    "question",
    "first_turn_bias",
    "advance_gating",
    "next_step",
    "confirmation",
    "no_proposals",
    "rejected",
    "criteria",
    "judgment",
    "complete",
    "schema",
    "question_appending",
)


def works_for(submissions: QuerySet[Submission]) -> list[Work]:
    rows = list(submissions.select_related("argument"))
    argument_ids = [s.argument_id for s in rows]
    turns: dict[int, Counter[str]] = defaultdict(Counter)
    guards: dict[int, Counter[str]] = defaultdict(Counter)
    rejections: Counter[int] = Counter()
    for argument_id, step, error_code, decisions in (
        CoachTurn.objects.filter(argument_id__in=argument_ids)
        .values_list("argument_id", "step", "error_code", "guard_decisions")
        .iterator()
    ):
        if error_code == REJECTED_BY_SCHEMA:
            rejections[argument_id] += 1
        if error_code:
            continue
        turns[argument_id][step] += 1
        for decision in decisions or []:
            if isinstance(decision, dict) and decision.get("changed"):
                guards[argument_id][str(decision.get("name", ""))] += 1
    verdicts = {pk: trial.status for pk, trial in latest_trials(argument_ids).items()}
    works = []
    for submission in rows:
        argument = submission.argument
        provenance = argument.provenance or {}
        works.append(
            Work(
                current_step=argument.current_step,
                complete=argument.is_complete,
                texts={s.id: getattr(argument, s.field) or "" for s in STEPS},
                provenance={s.id: provenance.get(s.field, "") for s in STEPS},
                turns=dict(turns[argument.pk]),
                guard_changes=dict(guards[argument.pk]),
                schema_rejections=rejections[argument.pk],
                verdict=verdicts.get(argument.pk, ""),
            )
        )
    return works


def _members_submissions(classroom: Classroom) -> QuerySet[Submission]:
    members = Membership.objects.filter(classroom=classroom).values("student_id")
    # Arguments only: a class discussion's submissions have none (its grid says the rest).
    return Submission.objects.filter(student_id__in=members, argument__isnull=False)


def _summary(works: list[Work], seats: int) -> Summary:
    return summarize(works, seats=seats, guard_order=GUARD_ORDER, verdict_order=TrialStatus.values)


def assignment_summary(assignment: Assignment) -> Summary:
    students = Membership.objects.filter(classroom=assignment.classroom_id).count()
    works = works_for(_members_submissions(assignment.classroom).filter(assignment=assignment))
    return _summary(works, students)


def classroom_summary(classroom: Classroom) -> Summary:
    """Every argument assignment of the class together: seats are students × assignments."""
    students = Membership.objects.filter(classroom=classroom).count()
    assignments = classroom.assignments.filter(kind=AssignmentKind.ARGUMENT).count()
    works = works_for(_members_submissions(classroom).filter(assignment__classroom=classroom))
    return _summary(works, students * assignments)
