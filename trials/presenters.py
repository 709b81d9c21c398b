"""A trial shaped for its page: each diagram box and each phase with its state.

The template only prints; every decision about what a box shows (its
content, "running", "not reached", "stopped here") is made here, where it
can be tested without HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from argumentation.toulmin_rules import TERMINATING_STRENGTHS
from trials.labels import toulmin_label
from trials.models import Trial, TrialFailure, TrialStatus
from trials.phases import PHASES, Phase

__all__ = ["FAILURE_MESSAGES", "PhaseView", "TrialView", "present"]

# Box states, also used as CSS classes.
DONE, RUNNING, WAITING, NOT_REACHED, FAILED, STOPPED = (
    "done",
    "running",
    "waiting",
    "not-reached",
    "failed",
    "stopped",
)
# What a screen reader hears after each phase's title.
STATE_LABELS = {
    DONE: pgettext_lazy("trial phase state", "done"),
    RUNNING: pgettext_lazy("trial phase state", "running"),
    WAITING: pgettext_lazy("trial phase state", "waiting"),
    NOT_REACHED: pgettext_lazy("trial phase state", "not reached"),
    FAILED: pgettext_lazy("trial phase state", "failed"),
    STOPPED: pgettext_lazy("trial phase state", "stopped"),
}


@dataclass(frozen=True)
class PhaseView:
    number: int
    tool: str
    title: str
    state: str

    @property
    def state_label(self) -> str:
        return STATE_LABELS[self.state]


@dataclass(frozen=True)
class TrialView:
    trial: Trial
    phases: tuple[PhaseView, ...]
    # Component name -> its JSON (None until its phase is done).
    components: dict[str, dict[str, Any] | None]
    # Component name -> box state.
    states: dict[str, str]
    stopped_component: str | None
    stopped_phase: PhaseView | None
    # Why a failed trial failed, in plain words ("" unless it failed).
    failure_message: str = ""
    # Why the circuit breaker stopped a terminated trial, in the page's language.
    stopped_reason: str = ""


# A failed trial's page says one of these, never a rule code or the
# service's error (those are in the admin, for instructors).
FAILURE_MESSAGES = {
    TrialFailure.SERVICE_UNAVAILABLE: _(
        "The AI service was unavailable (it was overloaded or could not be reached), so the "
        "trial stopped. The phases already weighed are kept: retry in a few minutes and it "
        "carries on from there."
    ),
    TrialFailure.REPLY_REJECTED: _(
        "The AI's answer for this phase broke the court's rules twice, so it could not be "
        "used. Retry to ask again; the phases already weighed are kept."
    ),
    TrialFailure.NO_API_KEY: _(
        "The trial could not run: the site has no API key for the AI service. Once whoever "
        "runs the site sets one, retry."
    ),
    TrialFailure.INTERNAL: _(
        "The trial stopped on an unexpected error. Retry, and if it fails again, tell whoever "
        "runs the site."
    ),
}


def failure_message(trial: Trial) -> str:
    if trial.status != TrialStatus.FAILED:
        return ""
    return str(FAILURE_MESSAGES.get(trial.failure) or FAILURE_MESSAGES[TrialFailure.INTERNAL])


# The stored `Trial.reason` is the breaker's English sentence; the page says it
# again from the stored strength, in the student's language, with a way forward.
STOPPED_REASONS = {
    "warrant": _(
        "The warrant was rated %(strength)s, and a weak or irrelevant warrant cannot carry the "
        "claim, so the trial stopped here. Make the warrant stronger and put the argument on "
        "trial again."
    ),
    "backing": _(
        "The backing of the warrant was rated %(strength)s, and a weak or irrelevant backing "
        "cannot support the warrant, so the trial stopped here. Give the warrant stronger "
        "backing and put the argument on trial again."
    ),
}


def stopped_reason(trial: Trial, component: str | None) -> str:
    if component is None:
        return ""
    strength = toulmin_label((trial.phase2 or {}).get(component, {}).get("strength"), "strength")
    return str(STOPPED_REASONS[component]) % {"strength": strength}


def _phase_state(trial: Trial, phase: Phase) -> str:
    if trial.phase_output(phase.number) is not None:
        return DONE
    if trial.status == TrialStatus.RUNNING and trial.running_phase == phase.number:
        return RUNNING
    if trial.status == TrialStatus.FAILED and trial.stopped_phase == phase.number:
        return FAILED
    return NOT_REACHED if trial.is_finished else WAITING


def _stopped_component(trial: Trial) -> str | None:
    """Which of warrant or backing the circuit breaker stopped at (warrant first, as it does)."""
    if trial.status != TrialStatus.TERMINATED or not trial.phase2:
        return None
    for name in ("warrant", "backing"):
        if trial.phase2.get(name, {}).get("strength") in TERMINATING_STRENGTHS:
            return name
    return None


def present(trial: Trial) -> TrialView:
    phases = tuple(PhaseView(p.number, p.tool, p.title, _phase_state(trial, p)) for p in PHASES)
    components: dict[str, dict[str, Any] | None] = {}
    states: dict[str, str] = {}
    for phase, view in zip(PHASES, phases, strict=True):
        output = trial.phase_output(phase.number) or {}
        for name in phase.outputs:
            components[name] = output.get(name)
            states[name] = view.state
    stopped = _stopped_component(trial)
    if stopped:
        states[stopped] = STOPPED
    stopped_phase = next((v for v in phases if v.number == trial.stopped_phase), None)
    return TrialView(
        trial=trial,
        phases=phases,
        components=components,
        states=states,
        stopped_component=stopped,
        stopped_phase=stopped_phase,
        failure_message=failure_message(trial),
        stopped_reason=stopped_reason(trial, stopped),
    )
