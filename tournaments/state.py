"""A tournament's saved rows as immutable values: the input of every stage.

Stages build their calls only from this state, so a resumed run rebuilds
byte-identical requests and the ledger replays the ones already paid. Money
spent is what the committed matches say they cost (``Match.cost_usd``,
written in each stage's transaction): a call paid by a stage that never
committed does not change what the next attempt of that stage decides.

Stage rounds: ``StageRun.round`` holds ``bracket_round * 100 + match_round``
(:func:`stage_round`), so ``challenge`` of bracket round 2, match round 3 is
``("challenge", 203)``; ``initial`` and ``judge`` of bracket round 2 are 200.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from engine.models import Debate
from tournaments.bracket import Pairing, first_round, next_round, round_count
from tournaments.models import Match, MatchStatus, Turn, TurnKind
from tournaments.schemas import ChallengeResponse, yes_man_problem

__all__ = [
    "MatchView",
    "TournamentState",
    "TurnView",
    "load_state",
    "reload_round",
    "split_round",
    "stage_round",
    "state_hash",
    "with_saved",
]

# A match has at most 5 rounds (services.create_tournament), far below the base;
# stage_round refuses anything that would spill into the next bracket round.
ROUND_BASE = 100


def stage_round(bracket_round: int, match_round: int) -> int:
    if not 0 <= match_round < ROUND_BASE or bracket_round < 0:
        raise ValueError(
            f"no stage round for bracket round {bracket_round}, match round {match_round}"
        )
    return bracket_round * ROUND_BASE + match_round


def split_round(code: int) -> tuple[int, int]:
    return divmod(code, ROUND_BASE)


@dataclass(frozen=True)
class TurnView:
    round: int
    kind: str
    model: str
    content: dict[str, Any]
    sent_back: bool
    cost_usd: str

    @property
    def yes_man_problem(self) -> str | None:
        if self.kind != TurnKind.CHALLENGE:
            return None
        return yes_man_problem(ChallengeResponse.model_validate(self.content))


@dataclass(frozen=True)
class MatchView:
    id: int
    bracket_round: int
    slot: int
    model_a: str
    model_b: str
    status: str
    rounds: int
    convergence: tuple[dict[str, Any], ...]
    winner: str
    loser: str
    budget_stopped: bool
    cost_usd: str
    turns: tuple[TurnView, ...]

    @property
    def running(self) -> bool:
        return self.status == MatchStatus.RUNNING

    @property
    def converged(self) -> bool:
        return bool(self.convergence) and bool(self.convergence[-1]["converged"])

    def opponent(self, model: str) -> str:
        return self.model_b if model == self.model_a else self.model_a

    def turn(self, round: int, kind: str, model: str) -> TurnView | None:
        for turn in self.turns:
            if (turn.round, turn.kind, turn.model) == (round, kind, model):
                return turn
        return None

    def current(self, model: str) -> str:
        """The model's recommendation as it now stands: its last defence, else its initial."""
        for turn in reversed(self.turns):
            if turn.model == model and turn.kind == TurnKind.DEFENCE:
                return turn.content["recommendation"]
        initial = self.turn(0, TurnKind.INITIAL, model)
        return initial.content["recommendation"] if initial else ""

    def plays_round(self, round: int) -> bool:
        """Whether the match goes into challenge round ``round`` (it has not settled)."""
        return (
            self.running
            and not self.budget_stopped
            and self.rounds == round - 1
            and not (round > 1 and self.converged)
        )


@dataclass(frozen=True)
class TournamentState:
    debate_id: int
    tournament_id: int
    question: str
    decision_type: str
    context: str
    models: tuple[str, ...]  # seed order
    max_rounds: int
    threshold: float
    no_cache: bool
    case_file_id: int | None
    budget_usd: str
    matches: tuple[MatchView, ...]
    # Money spent by committed stages, per bracket round (index 0: round 1).
    spent_by_round: tuple[str, ...]

    @property
    def bracket_rounds(self) -> int:
        return round_count(len(self.models))

    @property
    def total_matches(self) -> int:
        """Single elimination: every match but the byes knocks one model out."""
        return len(self.models) - 1

    def match(self, bracket_round: int, slot: int) -> MatchView | None:
        for m in self.matches:
            if (m.bracket_round, m.slot) == (bracket_round, slot):
                return m
        return None

    def matches_of(self, bracket_round: int) -> list[MatchView]:
        return [m for m in self.matches if m.bracket_round == bracket_round]

    def pairings(self, bracket_round: int) -> list[Pairing] | None:
        """The pairings of a bracket round; None while the round before is undecided."""
        pairs = first_round(self.models)
        for previous in range(1, bracket_round):
            winners = []
            for slot, pair in enumerate(pairs):
                if pair.is_bye:
                    winners.append(pair.a)
                    continue
                played = self.match(previous, slot)
                if played is None or not played.winner:
                    return None
                winners.append(played.winner)
            pairs = next_round(winners)
        return pairs

    def spent_in_round(self, bracket_round: int) -> Decimal:
        return Decimal(self.spent_by_round[bracket_round - 1])


def _turn_view(t: Turn) -> TurnView:
    return TurnView(
        round=t.round,
        kind=t.kind,
        model=t.model,
        content=t.content,
        sent_back=t.sent_back,
        cost_usd=str(t.cost_usd),
    )


def _turns(match: Match) -> tuple[TurnView, ...]:
    return tuple(_turn_view(t) for t in sorted(match.turns.all(), key=lambda t: (t.round, t.id)))


def _spent_by_round(matches: list[Match], rounds: int) -> tuple[str, ...]:
    spent: dict[int, Decimal] = defaultdict(Decimal)
    for m in matches:
        spent[m.bracket_round] += m.cost_usd
    return tuple(str(spent[r]) for r in range(1, rounds + 1))


def _match_view(m: Match, *, turns: tuple[TurnView, ...] | None = None) -> MatchView:
    return MatchView(
        id=m.pk,
        bracket_round=m.bracket_round,
        slot=m.slot,
        model_a=m.model_a,
        model_b=m.model_b,
        status=m.status,
        rounds=m.rounds,
        convergence=tuple(m.convergence_scores),
        winner=m.winner,
        loser=m.loser,
        budget_stopped=m.budget_stopped,
        cost_usd=str(m.cost_usd),
        turns=_turns(m) if turns is None else turns,
    )


def reload_round(state: TournamentState, *, bracket_round: int) -> TournamentState:
    """``state`` with one bracket round's matches read again: what a stage of it wrote.

    A stage writes only the matches (and turns) of its own bracket round, under
    the run's lease, so the rest of the state cannot have changed: reading the
    whole tournament back after every stage (every match, every turn) made
    each stage cost more as the run went on. Equal to :func:`load_state`
    (tests/tournaments/test_state_after_stage.py).
    """
    fresh = Match.objects.filter(
        tournament_id=state.tournament_id, bracket_round=bracket_round
    ).prefetch_related("turns")
    kept = [m for m in state.matches if m.bracket_round != bracket_round]
    views = sorted(
        [*kept, *(_match_view(m) for m in fresh)], key=lambda m: (m.bracket_round, m.slot)
    )
    return dataclasses.replace(
        state, matches=tuple(views), spent_by_round=_spent_with(state, views, bracket_round)
    )


def _spent_with(
    state: TournamentState, views: Sequence[MatchView], bracket_round: int
) -> tuple[str, ...]:
    """``state.spent_by_round`` with one bracket round summed again from ``views``."""
    spent = list(state.spent_by_round)
    if bracket_round <= len(spent):
        total = sum(
            (Decimal(m.cost_usd) for m in views if m.bracket_round == bracket_round), Decimal(0)
        )
        spent[bracket_round - 1] = str(total)
    return tuple(spent)


def with_saved(
    state: TournamentState, *, bracket_round: int, matches: Sequence[Match], turns: Sequence[Turn]
) -> TournamentState:
    """``state`` with the matches a stage saved and the turns it inserted, not read back.

    For a stage that wrote its bracket round only through these instances (as
    saved, under the run's lease): equal to :func:`reload_round`
    (tests/tournaments/test_state_after_stage.py). New turns have the highest
    ids, so within a round they follow the turns already there.
    """
    added: dict[int, list[TurnView]] = defaultdict(list)
    for t in turns:
        added[t.match_id].append(_turn_view(t))
    saved = {m.pk: m for m in matches}
    views = []
    for view in state.matches:
        match = saved.pop(view.id, None)
        if match is None:
            views.append(view)
            continue
        merged = sorted((*view.turns, *added[match.pk]), key=lambda t: t.round)
        views.append(_match_view(match, turns=tuple(merged)))
    for match in saved.values():  # created by the stage
        merged = sorted(added[match.pk], key=lambda t: t.round)
        views.append(_match_view(match, turns=tuple(merged)))
    views.sort(key=lambda m: (m.bracket_round, m.slot))
    return dataclasses.replace(
        state, matches=tuple(views), spent_by_round=_spent_with(state, views, bracket_round)
    )


def load_state(debate: Debate) -> TournamentState:
    tournament = debate.tournament
    matches = list(tournament.matches.prefetch_related("turns").order_by("bracket_round", "slot"))
    models = tuple(tournament.model_ids)
    return TournamentState(
        debate_id=debate.pk,
        tournament_id=tournament.pk,
        question=debate.topic,
        decision_type=tournament.decision_type,
        context=tournament.context,
        models=models,
        max_rounds=tournament.max_rounds,
        threshold=tournament.convergence_threshold,
        no_cache=tournament.no_cache,
        case_file_id=tournament.case_file_id,
        budget_usd=str(debate.budget_usd),
        matches=tuple(_match_view(m) for m in matches),
        spent_by_round=_spent_by_round(matches, round_count(len(models))),
    )


def _plain(value: object) -> object:
    """What ``json.dumps`` writes for a value it cannot: a view's fields (a match's
    database id left out), else the value as text."""
    if isinstance(value, MatchView):
        return {k: v for k, v in vars(value).items() if k != "id"}
    if isinstance(value, TournamentState | TurnView):
        return vars(value)
    return str(value)


# The last states hashed, by identity: each state is hashed twice (a stage's
# output hash, the next stage's input hash). The views hold dicts, so they are
# not hashable and lru_cache cannot key on them.
_HASHED: list[tuple[TournamentState, str]] = []


def state_hash(state: TournamentState) -> str:
    """sha256 of the state's canonical JSON (the StageRun audit chain).

    The JSON ``dataclasses.asdict`` gave (pinned in tests/tournaments), built
    without its deep copy of every turn's content: ``json.dumps`` turns each
    view into its fields as it meets it.
    """
    for seen, digest in _HASHED:
        if seen is state:
            return digest
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), default=_plain)
    digest = hashlib.sha256(text.encode()).hexdigest()
    _HASHED[:] = [*_HASHED[-3:], (state, digest)]
    return digest
