"""The persona graph debate as a format of the shared engine (engine/formats.py).

Stages ``decompose, arguments, (attacks r, validation r) for r in 1..R``
(debates/stages.py); the outcome — common ground, camps, cruxes — is computed
by ``argumentation.cruxes`` from the Dung semantics of the final graph.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from argumentation.cruxes import extract_outcome, summarize
from debates import events
from debates.graph import argument_infos, snapshot
from debates.stages import STAGES, plan
from debates.state import DebateState, load_state, state_hash
from debates.stopping import GraphStopReason
from engine import events as engine_events
from engine.formats import Format, from_plan
from engine.models import Debate
from engine.stopping import StopDecision

__all__ = ["GRAPH", "final_output", "start_payload"]

# Stop reasons that mean "the graph settled", announced with graph_convergence.
CONVERGENCE_REASONS = frozenset(GraphStopReason)


def start_payload(debate: Debate) -> dict:
    return {
        "topic": debate.topic,
        "personas": [{"id": p.id, "name": p.name} for p in debate.personas.order_by("id")],
        "max_rounds": debate.max_rounds,
        "budget_usd": str(debate.budget_usd),
    }


def final_output(debate: Debate, decision: StopDecision, *, state: DebateState) -> dict:
    """The stored output: the crux summary of the final graph plus how it ended."""
    af = snapshot(state).framework
    infos = argument_infos(state)
    output = summarize(outcome=extract_outcome(af=af, arguments=infos), af=af, arguments=infos)
    output.update(
        {
            "stopReason": decision.reason.value,
            "stopDetail": decision.detail,
            "roundsCompleted": debate.rounds_completed,
            "claims": list(state.claims),
        }
    )
    return output


def announce_convergence(debate: Debate, decision: StopDecision, output: dict) -> None:
    """A settled graph is announced before the debate's last event."""
    if decision.reason not in CONVERGENCE_REASONS:
        return
    engine_events.record_event(
        debate=debate,
        type=events.GRAPH_CONVERGENCE,
        payload={
            "round": debate.rounds_completed,
            "stop_reason": decision.reason.value,
            **({} if decision.code else {"detail": decision.detail}),
            "code": decision.code,
            "params": decision.params,
            "camps": len(output["camps"]),
        },
    )


def _page_url(debate: Debate) -> str:
    name = "debates:result" if debate.is_finished else "debates:live"
    return reverse(name, args=[debate.pk])


GRAPH = Format(
    event_types=events.EVENT_TYPES,
    stop_reasons=tuple(GraphStopReason.choices),
    name="graph",
    label=_("Graph debate"),
    stages=STAGES,
    next_stage=from_plan(lambda debate: plan(max_rounds=debate.max_rounds)),
    load_state=load_state,
    state_hash=state_hash,
    final_output=final_output,
    start_payload=start_payload,
    on_finish=announce_convergence,
    page_url=_page_url,
    plural_label=_("Debates"),
    about=_("AI personas argue a question in rounds; the semantics say what stands."),
    new_label=_("New debate"),
    new_url=lambda: reverse("debates:new"),
)
