"""A tournament stage's after-state, its bracket round read again, is what the tables hold.

Stages no longer read the whole tournament back after writing
(tournaments/state.reload_round): only their own bracket round. Each stage is
wrapped so that, still inside its transaction, the state it returns is
compared with ``load_state`` reading every table, field by field, ids included.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.models import Debate, DebateStatus
from engine.orchestrator import run_debate
from tests.tournaments.conftest import FIFTH, MODELS
from tournaments.services import create_tournament
from tournaments.stages import STAGES
from tournaments.state import load_state, state_hash

pytestmark = pytest.mark.django_db(transaction=True)


class _Checked:
    """A real stage whose commit is followed by a read of every table."""

    def __init__(self, stage, seen: list) -> None:
        self.stage, self.seen = stage, seen
        self.name = getattr(stage, "name", "")

    def __getattr__(self, name):
        return getattr(self.stage, name)

    def specs(self, **kwargs):
        return self.stage.specs(**kwargs)

    def commit(self, *, debate, state, round, results):
        outcome = self.stage.commit(debate=debate, state=state, round=round, results=results)
        self.seen.append((self.name, round, outcome.after, load_state(debate)))
        return outcome


@pytest.mark.parametrize(
    ("models", "stubborn", "converge_at"),
    [
        (MODELS, set(), 1),
        # Five models (a bye), two stubborn ones: matches go to more rounds and a verdict.
        ([*MODELS, FIFTH], {"alpha-1", "gamma-1"}, 2),
    ],
    ids=["four_converging", "five_with_stubborn"],
)
def test_it_returns_the_state_the_tables_hold_after_each_stage(
    fake_model, monkeypatch, models, stubborn, converge_at
) -> None:
    fake_model.stubborn, fake_model.converge_at = stubborn, converge_at
    import tournaments.converging
    import tournaments.turns

    built_from_saved = []
    with_saved = tournaments.turns.with_saved

    def counted(state, **kwargs):
        built_from_saved.append(kwargs["bracket_round"])
        return with_saved(state, **kwargs)

    for module in (tournaments.turns, tournaments.converging):
        monkeypatch.setattr(module, "with_saved", counted)
    seen: list = []
    for name, stage in list(STAGES.items()):
        monkeypatch.setitem(STAGES, name, _Checked(stage, seen))
    tournament = create_tournament(
        user=None,
        question="Which database for a 10,000-student course platform?",
        decision_type="database",
        models=models,
        budget_usd=Decimal("5"),
        launch_now=False,
    )

    run_debate(debate_id=tournament.debate_id)

    debate = Debate.objects.get(pk=tournament.debate_id)
    assert debate.status == DebateStatus.DONE, debate.error
    assert len(seen) >= 8
    # The opening, challenge, defence and convergence stages built theirs from what they saved.
    assert len(built_from_saved) >= 5
    for name, round, built, read in seen:
        assert built == read, (name, round)
        assert state_hash(built) == state_hash(read), (name, round)
