"""The orchestrator end to end: real SDK, real HTTP, the fake server playing the model."""

from __future__ import annotations

import threading
import time
from collections import defaultdict

import pytest

from debates import events
from debates.models import Attack, AttackStatus, DebateArgument
from engine import events as engine_events
from engine.models import DebateStatus, LLMCall
from engine.orchestrator import run_debate
from engine.stop_reasons import StopReason
from tests.argumentation.brute_force import BruteForce
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel, parse_request

pytestmark = pytest.mark.django_db

LATENCY_MS = 150


class ArrivalLog:
    """Wraps a responder and notes when each kind of request arrived."""

    def __init__(self, responder):
        self.responder = responder
        self.arrivals: dict[str, list[float]] = defaultdict(list)
        self._lock = threading.Lock()

    def __call__(self, body):
        with self._lock:
            self.arrivals[parse_request(body).title].append(time.monotonic())
        return self.responder(body)


def expected_calls(personas: int, rounds: int) -> int:
    return 1 + personas + rounds * (personas + 1)


def reference_graph(debate):
    """Nodes and edges straight from the rows: valid attacks only, rebuts both ways."""
    valid = list(
        Attack.objects.filter(debate=debate, status=AttackStatus.VALID).select_related(
            "from_argument", "to_argument"
        )
    )
    nodes = {a.key for a in DebateArgument.objects.filter(debate=debate, origin="initial")}
    nodes |= {t.from_argument.key for t in valid}
    edges = {(t.from_argument.key, t.to_argument.key) for t in valid}
    edges |= {(t.to_argument.key, t.from_argument.key) for t in valid if t.type == "rebut"}
    return nodes, edges


def test_it_runs_two_personas_for_two_rounds(fake_anthropic):
    log = ArrivalLog(FakeDebateModel())
    fake_anthropic.responder = log
    fake_anthropic.latency_ms = LATENCY_MS
    debate = make_debate(personas=2, rounds=2)

    claim = run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert claim.outcome == "claimed"
    assert (debate.status, debate.stop_reason) == (DebateStatus.DONE, StopReason.MAX_ROUNDS)
    stored = list(debate.events.order_by("seq"))
    assert [e.type for e in stored] == [
        engine_events.DEBATE_START,
        events.ARGUMENTS_SUBMITTED,
        events.GRAPH_UPDATE,
        events.ATTACKS_GENERATED,
        events.VALIDATION_COMPLETE,
        events.GRAPH_UPDATE,
        events.ATTACKS_GENERATED,
        events.VALIDATION_COMPLETE,
        events.GRAPH_UPDATE,
        engine_events.DEBATE_COMPLETE,
    ]
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    assert [e.payload["round"] for e in stored if e.type == events.GRAPH_UPDATE] == [0, 1, 2]

    calls = expected_calls(personas=2, rounds=2)
    assert len(fake_anthropic.message_requests) == calls
    ledger = list(LLMCall.objects.filter(debate=debate))
    assert len(ledger) == len({c.request_hash for c in ledger}) == calls
    assert sum(c.cost_usd for c in ledger) == debate.cost_usd > 0

    # Every attack went at another persona's argument, and the semantics match
    # an exhaustive search over the rows.
    attacks = list(Attack.objects.filter(debate=debate).select_related("to_argument"))
    assert attacks and all(a.to_argument.speaker_id != a.speaker_id for a in attacks)
    nodes, edges = reference_graph(debate)
    brute = BruteForce(nodes, edges)
    final = stored[-2].payload
    assert final["labels"] == brute.grounded_labels()
    assert final["counts"]["IN"] == sum(1 for v in final["labels"].values() if v == "IN")
    assert final["camps"] == len(brute.extensions("PR"))
    assert {frozenset(c) for c in debate.output["camps"]} == brute.extensions("PR")
    assert debate.output["stopReason"] == "MAX_ROUNDS"
    assert stored[-1].payload["output"] == debate.output


def test_it_asks_the_personas_of_a_stage_concurrently(fake_anthropic):
    log = ArrivalLog(FakeDebateModel())
    fake_anthropic.responder = log
    fake_anthropic.latency_ms = LATENCY_MS
    debate = make_debate(personas=3, rounds=1)

    run_debate(debate_id=debate.id)

    # Sequential calls would arrive at least one latency apart.
    for title in ("PersonaArguments", "PersonaAttacks"):
        times = log.arrivals[title]
        assert len(times) == 3
        assert max(times) - min(times) < LATENCY_MS / 1000 / 2, title


def test_it_counts_one_call_per_persona_and_stage(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=3, rounds=2)

    run_debate(debate_id=debate.id)

    stages = defaultdict(int)
    for call in LLMCall.objects.filter(debate=debate):
        stages[(call.stage, call.round)] += 1
    assert stages == {
        ("decompose", 0): 1,
        ("arguments", 0): 3,
        ("attacks", 1): 3,
        ("validation", 1): 1,
        ("attacks", 2): 3,
        ("validation", 2): 1,
    }
    assert debate.stages.count() == 2 + 2 * 2


def test_it_does_nothing_for_a_finished_debate(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=2, rounds=1)
    run_debate(debate_id=debate.id)
    sent = len(fake_anthropic.message_requests)
    events_before = debate.events.count()

    again = run_debate(debate_id=debate.id)

    assert again.outcome == "finished"
    assert len(fake_anthropic.message_requests) == sent
    assert debate.events.count() == events_before


def test_it_fails_with_a_clear_error_without_an_api_key(no_anthropic_key):
    debate = make_debate(personas=2, rounds=1)

    run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED
    last = debate.events.order_by("seq").last()
    assert last.type == engine_events.DEBATE_ERROR
    assert last.payload["failure"] == "no_api_key" and "error" not in last.payload
    assert "API key" in debate.error  # the details, for instructors
