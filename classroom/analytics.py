"""Class analytics: what a class's arguments say about where students struggle. Pure.

The input is one :class:`Work` per student's argument for an assignment
(plain data, loaded by ``classroom.analytics_data``); the output is a
:class:`Summary` of six measures, each per Toulmin element where that makes
sense:

- **completion**: elements *done* (the grid's rule, ``classroom.grid.cell_state``)
  over *seats*, the works expected (students × assignments): a student who
  never started counts as not done, so the share is of the class, not of
  the keen.
- **median coach turns**: the median number of successful coach turns spent
  on the element, over the works that had at least one turn there (a student
  who typed the field with the coach off would otherwise pull it to zero).
- **stuck**: per element, the mean coach turns spent on it by the works that
  reached it: those that moved past it (their turns *before advancing*) and
  the unfinished ones on it now (their turns so far, a lower bound: a
  student stuck there today must show, not wait until they move on). Also
  how many moved past and how many sit on it now. Sorted with the most
  turns first: the top row is where the class gets stuck.
- **guards**: how often each server-side guard changed a reply (a decision
  with ``changed``), and how often the schema guard rejected one outright
  (a turn that failed with ``coach_validation_failed``).
- **provenance**: per element, how many written elements were typed by the
  student, the student's words accepted, the coach's proposal accepted, or
  the coach's proposal edited (``coach.models.Provenance``).
- **verdicts**: the latest trial of each work, by status; works never tried
  are counted apart.

Medians use ``statistics.median`` (the mean of the middle two for an even
count). Nothing here divides by zero: an empty class has zero shares and no
medians (None).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from classroom.criteria import STEP_IDS
from classroom.grid import DONE, PROVENANCES, cell_state

__all__ = [
    "REJECTED_BY_SCHEMA",
    "Completion",
    "Stuck",
    "Summary",
    "TurnMedian",
    "Work",
    "summarize",
]

# The error code of a turn the schema guard refused (coach.turn).
REJECTED_BY_SCHEMA = "coach_validation_failed"


@dataclass(frozen=True)
class Work:
    """One student's argument for one assignment, as plain data."""

    current_step: str = "claim"
    complete: bool = False
    texts: Mapping[str, str] = field(default_factory=dict)  # step id -> text
    provenance: Mapping[str, str] = field(default_factory=dict)  # step id -> provenance
    turns: Mapping[str, int] = field(default_factory=dict)  # step id -> successful turns
    guard_changes: Mapping[str, int] = field(default_factory=dict)  # guard -> times changed
    schema_rejections: int = 0
    verdict: str = ""  # the latest trial's status, "" when never tried


@dataclass(frozen=True)
class Completion:
    step: str
    done: int
    seats: int

    @property
    def percent(self) -> float:
        return 100.0 * self.done / self.seats if self.seats else 0.0


@dataclass(frozen=True)
class TurnMedian:
    step: str
    median: float | None
    works: int  # works with at least one turn on the step


@dataclass(frozen=True)
class Stuck:
    step: str
    mean_turns: float | None  # over the works that reached the step
    advanced: int  # works that moved past the step
    here_now: int  # unfinished works on the step now


@dataclass(frozen=True)
class Summary:
    seats: int
    works: int
    complete: int
    completion: tuple[Completion, ...]
    turn_medians: tuple[TurnMedian, ...]
    stuck: tuple[Stuck, ...]  # most turns on the step first
    guards: tuple[tuple[str, int], ...]  # (guard name, interventions), in `guard_order`
    provenance: tuple[tuple[str, Mapping[str, int]], ...]  # (step, {provenance: count})
    verdicts: tuple[tuple[str, int], ...]  # (status, works), in `verdict_order`
    untried: int


def _done(work: Work, step: str) -> bool:
    state = cell_state(
        step=step,
        text=work.texts.get(step, ""),
        current_step=work.current_step,
        complete=work.complete,
    )
    return state == DONE


def _advanced_past(work: Work, step: str) -> bool:
    return work.complete or STEP_IDS.index(step) < STEP_IDS.index(work.current_step)


def summarize(
    works: Sequence[Work],
    *,
    seats: int,
    guard_order: Sequence[str] = (),
    verdict_order: Sequence[str] = (),
) -> Summary:
    """The six measures over `works`; `seats` is how many works were expected (≥ len(works))."""
    seats = max(seats, len(works))
    completion = tuple(
        Completion(step, sum(_done(w, step) for w in works), seats) for step in STEP_IDS
    )
    medians = []
    for step in STEP_IDS:
        counts = [w.turns.get(step, 0) for w in works if w.turns.get(step, 0) > 0]
        medians.append(TurnMedian(step, statistics.median(counts) if counts else None, len(counts)))
    stuck = []
    for step in STEP_IDS:
        past = [w for w in works if _advanced_past(w, step)]
        here = [w for w in works if not w.complete and w.current_step == step]
        spent = [w.turns.get(step, 0) for w in past + here]
        mean = statistics.fmean(spent) if spent else None
        stuck.append(Stuck(step, mean, len(past), len(here)))
    stuck.sort(key=lambda s: (-(s.mean_turns or 0.0), STEP_IDS.index(s.step)))

    changed: Counter[str] = Counter()
    for work in works:
        changed.update({name: n for name, n in work.guard_changes.items() if n > 0})
        changed["schema"] += work.schema_rejections
    names = list(guard_order) + sorted(set(changed) - set(guard_order))
    guards = tuple((name, changed.get(name, 0)) for name in names)

    provenance = tuple(
        (
            step,
            {
                kind: sum(
                    1
                    for w in works
                    if w.texts.get(step, "").strip() and w.provenance.get(step) == kind
                )
                for kind in PROVENANCES
            },
        )
        for step in STEP_IDS
    )

    tried = Counter(w.verdict for w in works if w.verdict)
    statuses = list(verdict_order) + sorted(set(tried) - set(verdict_order))
    return Summary(
        seats=seats,
        works=len(works),
        complete=sum(1 for w in works if w.complete),
        completion=completion,
        turn_medians=tuple(medians),
        stuck=tuple(stuck),
        guards=guards,
        provenance=provenance,
        verdicts=tuple((status, tried.get(status, 0)) for status in statuses),
        untried=sum(1 for w in works if not w.verdict),
    )
