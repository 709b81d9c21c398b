"""The engine's database work per stage is pinned: it cannot grow back unnoticed.

A graph debate (2 personas, 2 rounds) runs against the fake server answering
at once, every statement captured. The statements are cut where each stage
begins (re-reading the run row after the previous one), so a slice holds what
the stage did: that read, its ledger writes, its commit (rows, StageRun,
events, the finish with the last stage) (the first slice also holds the run's start: the claim, the
``debate_start`` event, the saved stages, the ledger's hashes and the state). If a change adds a query to a stage, this test names the
stage and shows its statements; lower the pinned figure when a change saves one.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.models import DebateEvent, DebateStatus, LLMCall
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db

# (stage, round) -> statements besides the ledger's writes: those are one
# INSERT and one UPDATE per batch of calls that came back together, and how
# the calls of a stage fall into batches depends on timing (counted in the
# second test). Transaction bookkeeping (BEGIN, SAVEPOINT,
# RELEASE) is left out: under the test's own transaction every block is a
# savepoint, in production the outermost ones are BEGIN ... COMMIT.
PINNED = {
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
_RUN_ROW = re.compile(r'^SELECT "stop_requested_at", "cost_usd", .* FROM "debates_debate" ')


def _per_stage(statements: list[str]) -> list[list[str]]:
    """The statements cut where each stage after the first begins.

    A stage ends with its StageRun INSERT and whatever its transaction writes
    after it (its events, the finish); the next begins by re-reading the run row.
    """
    slices, current, closing = [], [], False
    for sql in statements:
        if closing and _RUN_ROW.match(sql):
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


def test_it_runs_each_stage_in_a_pinned_number_of_queries(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=2, rounds=2)

    with CaptureQueriesContext(connection) as captured:
        run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE
    slices = _per_stage(_statements(captured))
    stages = list(debate.stages.order_by("id").values_list("name", "round"))
    assert len(slices) == len(stages) == len(PINNED)
    slices = [[sql for sql in part if not _LEDGER_WRITE.match(sql)] for part in slices]
    counts = {stage: len(part) for stage, part in zip(stages, slices, strict=True)}
    for stage, part in zip(stages, slices, strict=True):
        assert counts[stage] <= PINNED[stage], (stage, str(counts), "\n".join(part))
    assert counts == PINNED, f"fewer queries than pinned: lower PINNED to {counts}"


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
