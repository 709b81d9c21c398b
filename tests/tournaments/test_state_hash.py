"""A tournament's state hash is the one ``dataclasses.asdict`` gave (stored StageRun hashes hold).

``tournaments.state.state_hash`` no longer deep-copies the state: ``json.dumps``
turns each view into its fields as it meets it. The digest below is what the
asdict-based hash gave for this state, pinned when the change was made.
"""

from __future__ import annotations

from dataclasses import replace

from tournaments.state import MatchView, TournamentState, TurnView, state_hash

RICH = TournamentState(
    debate_id=7,
    tournament_id=3,
    question="Which database?",
    decision_type="database",
    context="10,000 students, é",
    models=("m-a", "m-b", "m-c"),
    max_rounds=3,
    threshold=0.85,
    no_cache=True,
    case_file_id=None,
    budget_usd="10",
    matches=(
        MatchView(
            id=41,
            bracket_round=1,
            slot=0,
            model_a="m-a",
            model_b="m-b",
            status="done",
            rounds=1,
            convergence=({"round": 1, "score": 0.9, "converged": True},),
            winner="m-a",
            loser="m-b",
            budget_stopped=False,
            cost_usd="0.012",
            turns=(
                TurnView(
                    0,
                    "initial",
                    "m-a",
                    {"recommendation": "PostgreSQL", "risks": ["x", "y"]},
                    False,
                    "0.003",
                ),
                TurnView(
                    1,
                    "challenge",
                    "m-b",
                    {"questions": [{"q": "why?", "n": 2}], "ok": None},
                    True,
                    "0.004",
                ),
            ),
        ),
        MatchView(
            id=42,
            bracket_round=2,
            slot=0,
            model_a="m-a",
            model_b="m-c",
            status="running",
            rounds=0,
            convergence=(),
            winner="",
            loser="",
            budget_stopped=False,
            cost_usd="0",
            turns=(),
        ),
    ),
    spent_by_round=("0.012", "0"),
)
RICH_HASH = "4ff4029b709f928bbe1569491962a67d2f65826e3fe3aa9ecd21f4c6945df6fd"


def test_it_hashes_a_state_as_before() -> None:
    assert state_hash(RICH) == RICH_HASH


def test_it_leaves_a_matchs_database_id_out_and_its_content_in() -> None:
    renumbered = replace(RICH, matches=(replace(RICH.matches[0], id=99), *RICH.matches[1:]))
    assert state_hash(renumbered) == RICH_HASH
    turn = replace(RICH.matches[0].turns[0], content={"recommendation": "MySQL"})
    edited = replace(RICH, matches=(replace(RICH.matches[0], turns=(turn,)), *RICH.matches[1:]))
    assert state_hash(edited) != RICH_HASH
