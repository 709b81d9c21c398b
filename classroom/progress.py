"""The progress grid of one assignment: a row per student of the class, a cell per element."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.utils import timezone

from classroom.also_asked import also_asked, latest_by_argument
from classroom.grid import cell_state, coach_reliance
from classroom.models import Assignment, Membership, Submission
from classroom.presenters import page_language
from coach.models import CoachTurn, Provenance
from coach.steps import STEPS, label_for

__all__ = ["Cell", "Row", "SORTS", "filter_rows", "grid_rows", "sort_rows"]

# Heavy reliance: at least half of what is written came from the coach.
HEAVY_RELIANCE = 0.5


@dataclass(frozen=True, slots=True)
class Cell:
    step: str
    state: str
    provenance: str  # "" when nothing is written
    who: str  # the provenance in words
    text: str
    label: str = ""  # the step's name in the page's language: each cell's link says whose part


@dataclass(frozen=True, slots=True)
class Row:
    student: Any
    submission: Submission | None
    cells: list[Cell]
    current_step: str
    complete: bool
    turns_on_step: int
    turns: int
    overdue: bool
    reliance: float
    # What the assignment asks besides the argument (classroom.also_asked), if anything.
    asked: tuple = ()

    @property
    def done(self) -> int:
        return sum(cell.state == "done" for cell in self.cells)

    @property
    def heavy_reliance(self) -> bool:
        return self.reliance >= HEAVY_RELIANCE


def _who(value: str) -> str:
    return str(Provenance(value).label) if value in Provenance.values else ""


def grid_rows(assignment: Assignment, *, now=None) -> list[Row]:
    now = now or timezone.now()
    students = [
        m.student
        for m in Membership.objects.filter(classroom=assignment.classroom)
        .select_related("student")
        .order_by("student__username")
    ]
    submissions = {
        s.student_id: s
        for s in Submission.objects.filter(assignment=assignment).select_related("argument")
    }
    extensions = {e.student_id: e.due_at for e in assignment.extensions.all()}
    counts: dict[tuple[int, str], int] = {}
    for item in (
        CoachTurn.objects.filter(argument__submission__assignment=assignment, error_code="")
        .values("argument_id", "step")
        .annotate(n=Count("id"))
    ):
        counts[(item["argument_id"], item["step"])] = item["n"]
    asks_more = assignment.asks_trial or assignment.asks_stress_test
    trials, stress = (
        latest_by_argument(s.argument_id for s in submissions.values()) if asks_more else ({}, {})
    )
    labels = {step.id: label_for(step.id, page_language()) for step in STEPS}
    rows = []
    for student in students:
        submission = submissions.get(student.pk)
        argument = submission.argument if submission else None
        due = extensions.get(student.pk, assignment.due_at)
        complete = bool(argument and argument.is_complete)
        current = argument.current_step if argument else "claim"
        cells = []
        for step in STEPS:
            text = getattr(argument, step.field) if argument else ""
            state = (
                cell_state(step=step.id, text=text, current_step=current, complete=complete)
                if argument
                else "empty"
            )
            provenance = (argument.provenance.get(step.field, "") if argument else "") or ""
            cells.append(Cell(step.id, state, provenance, _who(provenance), text, labels[step.id]))
        rows.append(
            Row(
                student=student,
                submission=submission,
                cells=cells,
                current_step=current,
                complete=complete,
                turns_on_step=counts.get((argument.pk, current), 0) if argument else 0,
                turns=sum(n for (aid, _s), n in counts.items() if argument and aid == argument.pk),
                overdue=due is not None and now > due and not complete,
                reliance=coach_reliance(argument.provenance) if argument else 0.0,
                asked=tuple(
                    also_asked(
                        assignment, trial=trials.get(argument.pk), stress=stress.get(argument.pk)
                    )
                )
                if argument
                else (),
            )
        )
    return rows


def filter_rows(
    rows: list[Row], *, stuck: int | None = None, overdue: bool = False, reliance: bool = False
) -> list[Row]:
    """Stuck: more than `stuck` turns on the current step, not complete."""
    if stuck is not None:
        rows = [r for r in rows if not r.complete and r.turns_on_step > stuck]
    if overdue:
        rows = [r for r in rows if r.overdue]
    if reliance:
        rows = [r for r in rows if r.heavy_reliance]
    return rows


SORTS = {
    "student": lambda r: r.student.get_username().casefold(),
    "progress": lambda r: (-r.done, r.student.get_username().casefold()),
    "stuck": lambda r: (-r.turns_on_step, r.student.get_username().casefold()),
    "reliance": lambda r: (-r.reliance, r.student.get_username().casefold()),
}


def sort_rows(rows: list[Row], key: str) -> list[Row]:
    return sorted(rows, key=SORTS.get(key, SORTS["student"]))
