"""Walk the stress test's route in this process, with replies computed here instead of a model's.

Both the demo stress test (scripted words) and the offline stress test
(objections from critical questions, answers checked by rules) run this way:
each stage's ``specs`` are built and its ``commit`` runs exactly as the engine
runs them, with a ``StageRun`` per stage, so the rows, events, semantics, page
and replay are a real run's. Only the replies are not a model's, and nothing
leaves the process.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from pydantic import BaseModel

from debates.schemas import AttackValidations
from debates.stages import pending_attacks
from engine.calls import CallResult, CallSpec
from engine.models import Debate, StageRun
from engine.orchestrator import finish
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision
from stresstests.state import StressState, load_state
from stresstests.stress_format import STRESS

__all__ = ["Replier", "all_valid", "finish_run", "walk"]

Replier = Callable[[CallSpec, StressState], BaseModel]


def all_valid(state: StressState, round: int, *, strength: float) -> AttackValidations:
    """Every attack waiting in ``round`` judged valid (well-formed by construction)."""
    return AttackValidations(
        verdicts=[
            {
                "attack_id": key,
                "no_fallacy": True,
                "relevant": True,
                "type_correct": True,
                "target_exists": True,
                "valid": True,
                "strength": strength,
                "corrections": "",
            }
            for key, _attack in pending_attacks(state.debate, round)
        ]
    )


def _run_stage(debate: Debate, name: str, round: int, state: StressState, reply: Replier):
    stage = STRESS.stages[name]
    specs = stage.specs(state=state, round=round, cheap_model=settings.CHEAP_MODEL)
    results = [
        CallResult(
            spec=spec, parsed=reply(spec, state), error=None, reused=False, cost_usd=Decimal(0)
        )
        for spec in specs
    ]
    with transaction.atomic():
        outcome = stage.commit(debate=debate, state=state, round=round, results=results)
        StageRun.objects.create(
            debate=debate,
            name=name,
            round=round,
            input_hash=STRESS.state_hash(state),
            output_hash=STRESS.state_hash(outcome.after),
            calls=len(specs),
            cost_usd=Decimal(0),
        )
    return outcome.after


def walk(debate: Debate, reply: Replier) -> StressState:
    """Run every stage the format's route asks for now (the engine's loop, in-process)."""
    done = set(StageRun.objects.filter(debate=debate).values_list("name", "round"))
    state = load_state(debate)
    while (step := STRESS.next_stage(debate, state, frozenset(done))) is not None:
        state = _run_stage(debate, *step, state, reply)
        done.add(step)
    return state


def finish_run(debate: Debate, state: StressState, *, detail: str) -> None:
    """End the run as the engine ends one whose route has no stage left."""
    with transaction.atomic():
        debate.refresh_from_db()
        finish(debate, StopDecision(StopReason.MAX_ROUNDS, detail), state=state)
