"""The stress test as a format of the shared engine (engine/formats.py).

Route: ``student 0, attacks 1, validation 1, concessions 1``, then one
``defence n`` stage per answer the student gives, in order. A finished stress
test goes back to ``queued`` when the student answers an attack
(stresstests/services.defend); the engine resumes at the new stage.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from debates import events as graph_events
from engine.formats import Format
from engine.models import DebateStatus
from engine.stopping import STOPPED_REASONS, is_budget_stop
from stresstests.models import DefenceRefusal
from stresstests.outcome import ATTACK_ROUND, compute, student_argument
from stresstests.stages import EVENT_TYPES, STAGES, leave_unchecked, reply_allowed
from stresstests.state import StressState, load_state, state_hash

__all__ = ["STRESS", "plan"]

OPENING = [("student", 0), ("attacks", 1), ("validation", 1), ("concessions", 1)]


def plan(state: StressState) -> list[tuple[str, int]]:
    """The opening, then per answer: its check, the persona's answer back and its validation."""
    steps = list(OPENING)
    for d in state.defences:
        steps.append(("defence", d.seq))
        if reply_allowed(state, d.seq):
            steps.append(("reply", d.seq))
            student = _student_id(state)
            if any(
                a.round == ATTACK_ROUND + d.seq and a.speaker_id != student
                for a in state.debate.attacks
            ):
                steps.append(("validation", ATTACK_ROUND + d.seq))
    return steps


def _student_id(state: StressState) -> int | None:
    student = student_argument(state)
    return student.speaker_id if student else None


def next_stage(debate, state: StressState, done: frozenset) -> tuple[str, int] | None:
    return next((step for step in plan(state) if step not in done), None)


def final_output(debate, decision, *, state: StressState) -> dict:
    output = compute(state).as_payload()
    output.update({"stopReason": decision.reason.value, "stopDetail": decision.detail})
    return output


def start_payload(debate) -> dict:
    return {
        "topic": debate.topic,
        "personas": [{"id": p.id, "name": p.name} for p in debate.personas.order_by("id")],
        "budget_usd": str(debate.budget_usd),
    }


def final_status(decision) -> str:
    if decision.reason in STOPPED_REASONS:
        return DebateStatus.STOPPED
    return DebateStatus.DONE


def on_finish(debate, decision, output) -> None:
    """An answer still waiting when the run ends will not be judged: mark it, with why."""
    budget = is_budget_stop(reason=decision.reason, code=decision.code)
    leave_unchecked(debate, reason=DefenceRefusal.BUDGET if budget else DefenceRefusal.STOPPED)


def _page_url(debate) -> str:
    return reverse("stresstests:detail", args=[debate.stress_test.pk])


def _replay_url(debate) -> str:
    return reverse("stresstests:replay", args=[debate.stress_test.pk])


# Its own, and the graph debate's that its borrowed stages (attacks, validation) record.
BORROWED_EVENT_TYPES = (
    graph_events.ARGUMENTS_SUBMITTED,
    graph_events.ATTACKS_GENERATED,
    graph_events.VALIDATION_COMPLETE,
    graph_events.GRAPH_UPDATE,
    graph_events.PERSONA_FAILED,
)

STRESS = Format(
    event_types=EVENT_TYPES + BORROWED_EVENT_TYPES,
    name="stress",
    label=_("Stress test"),
    stages=STAGES,
    next_stage=next_stage,
    load_state=load_state,
    state_hash=state_hash,
    final_output=final_output,
    start_payload=start_payload,
    final_status=final_status,
    on_finish=on_finish,
    page_url=_page_url,
    replay_url=_replay_url,
    plural_label=_("Stress tests"),
    about=_("AI personas attack a finished argument and its author defends it."),
    # A stress test starts from a finished argument, so the button leads to them.
    new_label=_("Stress-test one of my arguments"),
    new_url=lambda: reverse("coach:argument_list"),
)
