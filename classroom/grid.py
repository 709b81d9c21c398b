"""The progress grid's arithmetic: a cell's state, who wrote it, a row's signals. Pure.

A cell is one Toulmin element of one student's argument. Its state follows
the coach's own order of steps (`STEP_IDS`): an element is *done* once the
argument has moved past its step (or is complete) and the text is there; the
current step is *in progress*; anything else is *empty*. Who wrote it is the
provenance the coach records per field (coach.services): typed by the
student, the student's words accepted, the coach's proposal accepted or
edited. "Coach reliance" is the share of written elements whose text the
coach proposed (accepted or edited), the measure Kialo-style overviews lack.
"""

from __future__ import annotations

from collections.abc import Mapping

from classroom.criteria import STEP_IDS

__all__ = [
    "COACH_WRITTEN",
    "EMPTY",
    "DONE",
    "IN_PROGRESS",
    "PROVENANCES",
    "cell_state",
    "coach_reliance",
]

EMPTY, IN_PROGRESS, DONE = "empty", "in_progress", "done"
PROVENANCES: tuple[str, ...] = ("typed", "student_words", "accepted", "edited")
COACH_WRITTEN = frozenset({"accepted", "edited"})


def cell_state(*, step: str, text: str, current_step: str, complete: bool) -> str:
    """empty / in_progress / done for one element."""
    written = bool(text.strip())
    if complete:
        return DONE if written else EMPTY
    here, now = STEP_IDS.index(step), STEP_IDS.index(current_step)
    if here < now:
        return DONE if written else EMPTY
    if here == now:
        return IN_PROGRESS
    return IN_PROGRESS if written else EMPTY


def coach_reliance(provenance: Mapping[str, str]) -> float:
    """Share (0..1) of written elements whose text came from a coach's proposal."""
    known = [value for value in provenance.values() if value in PROVENANCES]
    if not known:
        return 0.0
    return sum(value in COACH_WRITTEN for value in known) / len(known)
