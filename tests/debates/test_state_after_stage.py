"""A stage's after-state, built in memory from what it wrote, is what the tables hold.

The graph debate's stages no longer read the debate back after writing it
(debates/state.with_new_rows, with_outcomes): under the run's lease the state
before plus the stage's own rows is the state after. Each stage here is
wrapped so that, still inside its transaction, the state it returns is
compared with ``load_state`` reading the tables, field by field, ids included.
"""

from __future__ import annotations

import pytest

from debates.stages import STAGES
from debates.state import load_state, state_hash
from engine.models import DebateStatus
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


class _Checked:
    """A real stage whose commit is followed by a read of the tables it wrote."""

    def __init__(self, stage, seen: list) -> None:
        self.stage, self.seen, self.name = stage, seen, stage.name

    def specs(self, **kwargs):
        return self.stage.specs(**kwargs)

    def commit(self, *, debate, state, round, results):
        outcome = self.stage.commit(debate=debate, state=state, round=round, results=results)
        self.seen.append((self.name, round, outcome.after, load_state(debate)))
        return outcome


@pytest.mark.parametrize(
    "model",
    [
        FakeDebateModel(),
        # Dropped attacks (unknown and own targets, a mistyped rebut, a missing
        # premise), a duplicate, invalid verdicts, verdicts for no attack.
        FakeDebateModel(
            invalid_every=2,
            attack_unknown=True,
            attack_own=True,
            attack_missing_premise=True,
            rebut_premise=True,
            duplicate_attack=True,
            unknown_verdict=True,
        ),
        # No verdicts at all: the round's attacks end not_validated.
        FakeDebateModel(omit_verdicts=True),
    ],
    ids=["plain", "every_drop", "no_verdicts"],
)
def test_it_returns_the_state_the_tables_hold_after_each_stage(fake_anthropic, monkeypatch, model):
    seen: list = []
    for name, stage in list(STAGES.items()):
        monkeypatch.setitem(STAGES, name, _Checked(stage, seen))
    fake_anthropic.responder = model
    debate = make_debate(personas=3, rounds=2)

    run_debate(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status in (DebateStatus.DONE, DebateStatus.STOPPED), debate.error
    assert [(name, round) for name, round, _, _ in seen][:2] == [("decompose", 0), ("arguments", 0)]
    assert any(name == "validation" for name, _, _, _ in seen)
    for name, round, built, read in seen:
        assert built == read, (name, round)
        assert state_hash(built) == state_hash(read), (name, round)
