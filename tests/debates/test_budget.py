"""Budget: an estimate before starting, and a clean stop before overspending."""

from decimal import Decimal

import pytest

from debates.services import estimate_cost
from debates.stages import plan
from engine import events
from engine.models import DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from engine.stop_reasons import StopReason
from tests.debates.factories import default_personas, make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


def test_it_estimates_more_for_more_rounds_and_personas():
    two, four = default_personas(2), default_personas(4)
    one_round = estimate_cost(personas=two, rounds=1)
    assert Decimal(0) < one_round < estimate_cost(personas=two, rounds=3)
    assert estimate_cost(personas=two, rounds=3) < estimate_cost(personas=four, rounds=3)
    assert one_round == one_round.quantize(Decimal("0.01"))


def test_it_stops_cleanly_before_a_stage_it_cannot_pay_for(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    budget = Decimal("0.03")
    debate = make_debate(personas=2, rounds=3, budget=budget)

    run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    # The budget is the engine's own reason, not a defect of the argument.
    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, StopReason.BUDGET)
    assert debate.stop_code == "budget" and debate.stop_in_english.startswith("The next stage (")
    assert debate.cost_usd <= budget
    assert StageRun.objects.filter(debate=debate).count() < len(plan(max_rounds=3))
    assert LLMCall.objects.filter(debate=debate).count() < 1 + 2 + 3 * 3
    # It keeps what it has: the graph so far is summarised and announced.
    last = debate.events.order_by("seq").last()
    assert last.type == events.DEBATE_COMPLETE
    assert last.payload["stop_reason"] == "BUDGET"
    assert last.payload["output"] == debate.output
    assert debate.output["labels"]
