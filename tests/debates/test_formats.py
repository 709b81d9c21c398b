"""A second debate format runs on the same engine: dynamic route, hooks, resume."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from pydantic import BaseModel, Field

from debates.stopping import GraphStopReason
from engine import formats
from engine.calls import CallSpec, Prompt
from engine.formats import Format, from_plan, get_format
from engine.models import Debate, DebateEvent, DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from engine.stages import StageOutcome
from engine.stopping import StopDecision
from tests.fakes.anthropic_server import Reply

pytestmark = pytest.mark.django_db(transaction=True)


class Count(BaseModel):
    n: int = Field(ge=0, le=100)


@dataclasses.dataclass(frozen=True)
class CountState:
    total: int


def _load(debate: Debate) -> CountState:
    return CountState(total=len(debate.claims))


class AskStage:
    """One model call per round; the reply's number is appended to the debate's claims."""

    def specs(self, *, state, round, cheap_model):
        prompt = Prompt(system="count", messages=[{"role": "user", "content": f"round {round}"}])
        return [
            CallSpec(
                stage="ask",
                round=round,
                persona_id=None,
                model=cheap_model,
                prompt=prompt,
                output_model=Count,
                max_tokens=50,
                expected_output_tokens=10,
                agent="counter",
            )
        ]

    def commit(self, *, debate, state, round, results):
        got = [r.parsed.n for r in results if r.ok]
        Debate.objects.filter(pk=debate.pk).update(claims=list(debate.claims) + got)
        after = CountState(total=state.total + len(got))
        stop = None
        if got and got[0] == 0:
            stop = StopDecision(GraphStopReason.CONSENSUS, "the model said zero")
        return StageOutcome(after=after, stop=stop)


class CheckStage:
    """A stage with no call: code only."""

    def specs(self, *, state, round, cheap_model):
        return []

    def commit(self, *, debate, state, round, results):
        return StageOutcome(after=state)


def _route(debate, state, done):
    # ask 1, check 1, ask 2, check 2, ... while fewer than 3 asks are saved.
    for round in range(1, 4):
        for name in ("ask", "check"):
            if (name, round) not in done:
                return (name, round)
    return None


@pytest.fixture
def counting_format(monkeypatch):
    audits: list[tuple[str, int, str, str]] = []
    finishes: list[str] = []

    def after_stage(*, debate, stage_run, before, outcome, results):
        audits.append(
            (stage_run.name, stage_run.round, stage_run.input_hash, stage_run.output_hash)
        )

    def on_finish(debate, decision, output):
        finishes.append(decision.reason.value)

    fmt = Format(
        name="counting",
        label="Counting",
        stages={"ask": AskStage(), "check": CheckStage()},
        next_stage=_route,
        load_state=_load,
        state_hash=lambda state: f"{state.total:064d}",
        final_output=lambda debate, decision, *, state: {"total": state.total},
        start_payload=lambda debate: {"topic": debate.topic},
        after_stage=after_stage,
        on_finish=on_finish,
    )
    monkeypatch.setitem(formats._FORMATS, "counting", fmt)
    return audits, finishes


def test_it_registers_the_graph_debate_as_a_format() -> None:
    assert get_format("graph").stages.keys() == {"decompose", "arguments", "attacks", "validation"}


def test_it_runs_another_format_to_its_route_s_end(fake_anthropic, counting_format) -> None:
    audits, finishes = counting_format
    fake_anthropic.responder = lambda body: Reply.json({"n": 7})
    debate = Debate.objects.create(topic="count", format="counting", budget_usd=Decimal("1"))

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE
    assert debate.output == {"total": 3}
    assert [(a[0], a[1]) for a in audits] == [
        ("ask", 1),
        ("check", 1),
        ("ask", 2),
        ("check", 2),
        ("ask", 3),
        ("check", 3),
    ]
    # The audit chains: each stage's input hash is the previous stage's output hash.
    assert all(audits[i][2] == audits[i - 1][3] for i in range(1, len(audits)))
    assert finishes == ["MAX_ROUNDS"]
    assert set(LLMCall.objects.filter(debate=debate).values_list("agent", flat=True)) == {"counter"}


def test_it_stops_when_a_stage_says_so(fake_anthropic, counting_format) -> None:
    fake_anthropic.enqueue(Reply.json({"n": 5}), Reply.json({"n": 0}))
    debate = Debate.objects.create(topic="count", format="counting", budget_usd=Decimal("1"))

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert debate.stop_reason == GraphStopReason.CONSENSUS
    assert debate.claims == [5, 0]
    assert not StageRun.objects.filter(debate=debate, name="ask", round=3).exists()
    assert DebateEvent.objects.filter(debate=debate, type="debate_complete").count() == 1


def test_it_resumes_after_the_last_saved_stage(fake_anthropic, counting_format) -> None:
    fake_anthropic.responder = lambda body: Reply.json({"n": 4})
    debate = Debate.objects.create(topic="count", format="counting", budget_usd=Decimal("1"))
    run_debate(debate_id=debate.pk)
    asked = len(fake_anthropic.requests)
    # Forget the end and the last two stages, as if the worker died there.
    StageRun.objects.filter(debate=debate, round=3).delete()
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.RUNNING, claims=[4, 4])

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE and debate.claims == [4, 4, 4]
    # The round-3 call is in the ledger: replayed, not asked again.
    assert len(fake_anthropic.requests) == asked
    assert LLMCall.objects.filter(debate=debate).count() == 3


def test_it_fails_a_debate_of_an_unknown_format_without_raising() -> None:
    debate = Debate.objects.create(topic="x", format="no-such-format", budget_usd=Decimal("1"))

    run_debate(debate_id=debate.pk)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.FAILED and "KeyError" in debate.error


def test_from_plan_gives_the_first_unsaved_step() -> None:
    step = from_plan(lambda debate: [("a", 0), ("b", 1), ("c", 1)])
    assert step(None, None, frozenset({("a", 0)})) == ("b", 1)
    assert step(None, None, frozenset({("a", 0), ("b", 1), ("c", 1)})) is None
