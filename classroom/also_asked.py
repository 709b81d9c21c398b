"""What an assignment asks besides the argument (a trial, a stress test) and where each stands.

Read-only shaping for the student's assignment page, the instructor's grid
and the read-only work view. The latest trial and the latest stress test of
the submission's argument count; a stress test that has finished says where
the student's claim stands, computed by the stress test's own solver
(``stresstests.outcome``), never stored twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from classroom.models import Assignment
from engine.models import DebateStatus
from stresstests.models import StressTest
from trials.models import Trial

__all__ = [
    "Asked",
    "also_asked",
    "latest_by_argument",
    "latest_stress_tests",
    "latest_trials",
    "stress_state",
]


@dataclass(frozen=True, slots=True)
class Asked:
    kind: str  # "trial" | "stress"
    title: str
    state: str  # words: "not started yet", a verdict, where the claim stands, ...
    object_id: int | None  # the trial's or stress test's id, when there is one
    finished: bool


def latest_trials(argument_ids: Iterable[int]) -> dict[int, Trial]:
    """Each argument's latest trial, in one query."""
    trials: dict[int, Trial] = {}
    for trial in Trial.objects.filter(argument_id__in=list(argument_ids)).order_by(
        "argument_id", "-id"
    ):
        trials.setdefault(trial.argument_id, trial)
    return trials


def latest_stress_tests(argument_ids: Iterable[int]) -> dict[int, StressTest]:
    """Each argument's latest stress test (with its debate), in one query."""
    stress: dict[int, StressTest] = {}
    for test in (
        StressTest.objects.filter(argument_id__in=list(argument_ids))
        .select_related("debate")
        .order_by("argument_id", "-created_at", "-id")
    ):
        stress.setdefault(test.argument_id, test)
    return stress


def latest_by_argument(
    argument_ids: Iterable[int],
) -> tuple[dict[int, Trial], dict[int, StressTest]]:
    ids = list(argument_ids)
    return latest_trials(ids), latest_stress_tests(ids)


def _words_for_instructors() -> dict[str, str]:
    """The stress test's status sentences, about the student rather than to them."""
    return {
        "grounded_in": _("The claim stands against every objection raised"),
        "credulous": _("The claim can be defended, but so can an opposing view"),
        "defeated": _("The claim is defeated as it stands"),
    }


def stress_state(test: StressTest, *, for_student: bool = False) -> str:
    """Where the claim stands (a finished run), else the run's state, in words."""
    if test.debate.status != DebateStatus.DONE:
        return str(test.debate.get_status_display())
    # Imported here: the stress test's solver pulls in its presenters' words.
    from stresstests.outcome import compute
    from stresstests.presenters import STATUS_WORDS
    from stresstests.state import load_state

    status = compute(load_state(test.debate)).status.status
    if for_student:
        return STATUS_WORDS()[status][0]
    return _words_for_instructors()[str(status.value)]


def also_asked(
    assignment: Assignment,
    *,
    trial: Trial | None,
    stress: StressTest | None,
    for_student: bool = False,
) -> list[Asked]:
    items = []
    if assignment.asks_trial:
        items.append(
            Asked(
                kind="trial",
                title=_("A trial of your argument"),
                state=str(trial.get_status_display()) if trial else _("not started yet"),
                object_id=trial.pk if trial else None,
                finished=bool(trial and trial.has_verdict),
            )
        )
    if assignment.asks_stress_test:
        items.append(
            Asked(
                kind="stress",
                title=_("A stress test of your argument"),
                state=(
                    stress_state(stress, for_student=for_student)
                    if stress
                    else _("not started yet")
                ),
                object_id=stress.pk if stress else None,
                finished=bool(stress and stress.debate.status == DebateStatus.DONE),
            )
        )
    return items
