"""The engine's database work per stage has a budget: an N+1 cannot creep in unnoticed.

A graph debate runs against the fake server answering at once, every statement
captured. The statements are cut where each stage begins (re-reading the run
row after the previous one), so a slice holds what the stage did: that read,
its commit (rows, StageRun, events, the finish with the last stage) (the first
slice also holds the run's start: the claim, the ``debate_start`` event, the
saved stages, the ledger's hashes and the state). Each stage stays within its
budget, and a debate with twice the personas (so twice the arguments, attacks
and validations) takes exactly as many statements per stage: what a stage
writes goes in a statement per table, not one per row.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from debates.models import Attack
from engine.between_stages import BETWEEN_STAGES
from engine.models import Debate, DebateEvent, DebateStatus, LLMCall
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db

# (stage, round) -> at most this many statements besides the ledger's writes:
# those are one INSERT and one UPDATE per batch of calls that came back
# together, and how the calls of a stage fall into batches depends on timing
# (counted in the last test). Transaction bookkeeping (BEGIN, SAVEPOINT,
# RELEASE) is left out: under the test's own transaction every block is a
# savepoint, in production the outermost ones are BEGIN ... COMMIT.
BUDGET = {
    ("decompose", 0): 14,  # the run's start included
    ("arguments", 0): 6,  # the personas come from the state
    ("attacks", 1): 8,  # its targets come from the state: no argument row read
    ("validation", 1): 8,  # its attacks come from the state, not read back
    ("attacks", 2): 8,
    ("validation", 2): 10,  # the last stage finishes the debate: output, debate_complete
}

_STAGE_RUN = re.compile(r'^INSERT INTO "debates_stagerun"')
_LEDGER_WRITE = re.compile(
    r'^(INSERT INTO "debates_llmcall"|UPDATE "debates_debate" SET "cost_usd")'
)
# engine.between_stages: what the engine reads back of the run row after a stage.
_RUN_ROW_READ = re.compile(r'^SELECT (?P<columns>.*) FROM "debates_debate" WHERE ')
_READ_BETWEEN = {"id", *BETWEEN_STAGES}


def _reads_between_stages(sql: str) -> bool:
    found = _RUN_ROW_READ.match(sql)
    if found is None:
        return False
    columns = {c.strip().split(".")[-1].strip('"') for c in found["columns"].split(",")}
    return columns == _READ_BETWEEN


def _per_stage(statements: list[str]) -> list[list[str]]:
    """The statements cut where each stage after the first begins.

    A stage ends with its StageRun INSERT and whatever its transaction writes
    after it (its events, the finish); the next begins by re-reading the run row.
    """
    slices, current, closing = [], [], False
    for sql in statements:
        if closing and _reads_between_stages(sql):
            slices.append(current)
            current, closing = [], False
        current.append(sql)
        closing = closing or bool(_STAGE_RUN.match(sql))
    slices.append(current)
    return slices


def _statements(captured: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if not re.match(r"^(BEGIN|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK)", q["sql"])
    ]


def _count(statements: list[str], pattern: str) -> int:
    return sum(1 for sql in statements if re.match(pattern, sql))


def _counts(fake_anthropic, *, personas: int, rounds: int = 2) -> dict:
    """Statements per (stage, round) of one run, the ledger's writes left out."""
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=personas, rounds=rounds)

    with CaptureQueriesContext(connection) as captured:
        run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE
    slices = _per_stage(_statements(captured))
    stages = list(debate.stages.order_by("id").values_list("name", "round"))
    assert len(slices) == len(stages)
    slices = [[sql for sql in part if not _LEDGER_WRITE.match(sql)] for part in slices]
    return {stage: part for stage, part in zip(stages, slices, strict=True)}


def test_it_runs_each_stage_within_its_budget_of_queries(fake_anthropic):
    parts = _counts(fake_anthropic, personas=2)
    assert set(parts) == set(BUDGET)
    for stage, part in parts.items():
        assert len(part) <= BUDGET[stage], (stage, len(part), "\n".join(part))


# save_outcomes: one UPDATE per distinct outcome of a round's attacks (a handful at most).
_OUTCOME = r'^UPDATE "debates_attack" SET "status"'


def _outcomes(debate_id: int, round: int) -> int:
    """The distinct (status, drop reason) of a round's attacks."""
    attacks = Attack.objects.filter(debate_id=debate_id, round=round)
    return attacks.values_list("status", "drop_reason").distinct().order_by().count()


def test_it_takes_as_many_queries_per_stage_for_twice_the_rows(fake_anthropic):
    few = _counts(fake_anthropic, personas=2)
    few_run = Debate.objects.order_by("-pk").values_list("pk", flat=True).first()
    many = _counts(fake_anthropic, personas=4)
    many_run = Debate.objects.order_by("-pk").values_list("pk", flat=True).first()
    assert (
        Attack.objects.filter(debate=many_run).count()
        > Attack.objects.filter(debate=few_run).count()
    )
    for (name, round), part in many.items():
        fixed = [sql for sql in part if not re.match(_OUTCOME, sql)]
        assert len(fixed) == len(few[name, round]) - _count(few[name, round], _OUTCOME), (
            (name, round),
            "\n".join(fixed),
        )
        if name == "validation":
            for run, parts in ((few_run, few), (many_run, many)):
                assert _count(parts[name, round], _OUTCOME) == _outcomes(run, round)


def test_it_writes_a_stages_events_and_calls_with_one_statement_each(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=3, rounds=1)

    with CaptureQueriesContext(connection) as captured:
        run_debate(debate_id=debate.id)

    slices = _per_stage(_statements(captured))
    for number, part in enumerate(slices):
        start = 1 if number == 0 else 0  # debate_start, and the ledger's hashes read once
        # The event counter moves at most once per stage and the events go in one INSERT.
        assert _count(part, r'^UPDATE "debates_debate" SET "event_seq"') <= 1 + start, part
        assert _count(part, r'^INSERT INTO "debates_debateevent"') <= 1 + start, part
        # A fresh run has nothing to replay: its stages never look the ledger up.
        assert _count(part, r'^SELECT .* FROM "debates_llmcall"') == start, part
        # One INSERT per batch of calls that finished together, not one per call.
        calls = _count(part, r'^INSERT INTO "debates_llmcall"')
        assert calls == _count(part, r'^UPDATE "debates_debate" SET "cost_usd"'), part
    # Nothing lost on the way: seqs 1..N without a gap, one ledger row per call.
    seqs = list(DebateEvent.objects.filter(debate=debate).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    debate.refresh_from_db()
    assert debate.event_seq == len(seqs)
    assert LLMCall.objects.filter(debate=debate).count() == 1 + 3 + (3 + 1)
