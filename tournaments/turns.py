"""What a tournament's stages write for the two sides of a match.

Every call of a stage is tagged with its match and side (``keyed``), so the
results come back grouped by match (``by_match``); ``save_turns`` stores a
turn for each side that answered, what it cost (from the ledger, replayed calls
included), and a forfeit for a side that did not (tournaments/forfeits.py).
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from engine import events
from engine.calls import CallResult, CallSpec
from engine.models import Debate, LLMCall
from engine.stopping import StopDecision
from tournaments import events as tournament_events
from tournaments import research
from tournaments.cache import cache_for
from tournaments.forfeits import both_failed, forfeit
from tournaments.models import Match, Turn, TurnKind
from tournaments.schemas import (
    ModelResponse,
)
from tournaments.state import TournamentState, reload_round, split_round, with_saved

__all__ = [
    "ARBITER_MAX_TOKENS",
    "EXPECTED_TOKENS",
    "MODEL_MAX_TOKENS",
    "add_cost",
    "by_match",
    "call_spec",
    "costs_by_hash",
    "finished_event",
    "hash_of",
    "SavedTurns",
    "keyed",
    "ledger_rows",
    "save_turns",
    "turn_content",
]


MODEL_MAX_TOKENS = 2000
ARBITER_MAX_TOKENS = 1200
EXPECTED_TOKENS = {"initial": 700, "challenge": 800, "defence": 800, "arbiter": 300, "verdict": 500}


def finished_event(debate: Debate, match: Match, ratings: dict | None = None) -> None:
    events.record_event(
        debate=debate,
        type=tournament_events.MATCH_FINISHED,
        payload={
            "match": match.pk,
            "bracket_round": match.bracket_round,
            "status": match.status,
            "winner": match.winner,
            "loser": match.loser,
            "is_disputed": match.is_disputed,
            "reason": match.failure_reason or match.disputed_reason,
            "ratings": ratings or {},
        },
    )


def call_spec(
    state: TournamentState,
    *,
    stage: str,
    code: int,
    model: str,
    prompt,
    output_model,
    expected: str,
    agent: str,
    tools: bool = False,
) -> CallSpec:
    arbiter = agent == "arbiter"
    return CallSpec(
        stage=stage,
        round=code,
        persona_id=None,
        model=model,
        prompt=prompt,
        output_model=output_model,
        max_tokens=ARBITER_MAX_TOKENS if arbiter else MODEL_MAX_TOKENS,
        expected_output_tokens=EXPECTED_TOKENS[expected],
        agent=agent[:40],
        cache=None if state.no_cache else cache_for(state.tournament_id),
        tools=research.toolbox(state) if tools else None,
    )


def hash_of(result: CallResult) -> str:
    """The result's request hash (kept on it by the engine; recomputing it hashes the prompt)."""
    return result.request_hash or result.spec.request_hash


def ledger_rows(debate: Debate, results: list[CallResult]) -> dict[str, dict[str, Any]]:
    """The ledger rows of the stage's requests (replayed calls included), by request hash.

    The engine hands each result its row's figures (``CallResult.ledger``); the
    ledger is read only for a result without them.
    """
    rows = {
        hash_of(r): {"request_hash": hash_of(r), **dataclasses.asdict(r.ledger)}
        for r in results
        if r.ledger is not None
    }
    if unread := [hash_of(r) for r in results if r.ledger is None]:
        rows |= {
            row["request_hash"]: row
            for row in LLMCall.objects.filter(debate=debate, request_hash__in=unread).values(
                "request_hash", "cost_usd", "input_tokens", "output_tokens", "latency_ms"
            )
        }
    return rows


def costs_by_hash(debate: Debate, results: list[CallResult]) -> dict[str, Decimal]:
    """What each request cost, from the ledger, by request hash."""
    return {h: row["cost_usd"] for h, row in ledger_rows(debate, results).items()}


def turn_content(kind: str, model: str, result: CallResult, row: dict[str, Any] | None) -> dict:
    """A turn's stored reply; an initial recommendation gets the call's metadata."""
    if kind != TurnKind.INITIAL:
        return result.parsed.model_dump(mode="json")
    row = row or {}
    response = ModelResponse(
        **result.parsed.model_dump(),
        model_id=model,
        input_tokens=row.get("input_tokens", 0),
        output_tokens=row.get("output_tokens", 0),
        response_seconds=round(row.get("latency_ms", 0) / 1000, 3),
    )
    return response.model_dump(mode="json")


def add_cost(match: Match, model: str, cost: Decimal) -> None:
    costs = dict(match.costs)
    costs[model] = str(Decimal(costs.get(model, "0")) + cost)
    match.costs = costs
    match.cost_usd += cost


def by_match(
    results: list[CallResult], match_ids: dict | None = None
) -> dict[int, dict[str, CallResult]]:
    grouped: dict[int, dict[str, CallResult]] = {}
    for result in results:
        key, model = result.spec.tag
        match_id = match_ids[key] if match_ids is not None else key
        grouped.setdefault(match_id, {})[model] = result
    return grouped


@dataclasses.dataclass(frozen=True)
class SavedTurns:
    """What :func:`save_turns` wrote (the matches as saved, the turns as inserted) and its stop."""

    stop: StopDecision | None
    matches: tuple[Match, ...]
    turns: tuple[Turn, ...]

    def after(self, state: TournamentState, *, code: int, expected: set[int]) -> TournamentState:
        """The state after the stage: built from what was saved when that is every
        match the stage wrote (``expected``), else its bracket round read again."""
        bracket_round, _ = split_round(code)
        if self.stop is None and expected <= {m.pk for m in self.matches}:
            return with_saved(
                state, bracket_round=bracket_round, matches=self.matches, turns=self.turns
            )
        return reload_round(state, bracket_round=bracket_round)


def save_turns(
    debate: Debate,
    state: TournamentState,
    *,
    stage: str,
    code: int,
    kind: str,
    results: list[CallResult],
    match_ids: dict | None = None,
) -> SavedTurns:
    """Turns for every side that answered; forfeits for sides that did not.

    The stage's matches are read (and locked) in one query and its turns
    inserted in one, in the order the matches come. What was saved comes back
    with the stop, if any, so the stage can build its after-state from it.
    """
    _, r = split_round(code)
    ledger = ledger_rows(debate, results)
    grouped = by_match(results, match_ids)
    # Locked in the key's order, whatever the model's ordering.
    matches = Match.objects.select_for_update().order_by("pk").in_bulk(list(grouped))
    turns: list[Turn] = []
    saved: list[Match] = []
    for match_id, sides in grouped.items():
        match = matches[match_id]
        failed = {model: res for model, res in sides.items() if not res.ok}
        if len(failed) == 2:
            Turn.objects.bulk_create(turns)  # the matches done so far keep their turns
            stop = both_failed(state, stage=stage, code=code, match=match, failed=failed)
            return SavedTurns(stop=stop, matches=tuple(saved), turns=tuple(turns))
        for model, res in sides.items():
            row = ledger.get(hash_of(res))
            cost = row["cost_usd"] if row else Decimal(0)
            add_cost(match, model, cost)
            if res.ok:
                turns.append(
                    Turn(
                        match=match,
                        round=r,
                        kind=kind,
                        model=model,
                        content=turn_content(kind, model, res, row),
                        tool_calls=list(res.tool_calls),
                        cost_usd=cost,
                    )
                )
        for model, res in failed.items():
            forfeit(match, model=model, error=res.error, stage=stage)
        match.save()
        saved.append(match)
        answered = [model for model, res in sides.items() if res.ok]
        events.record_event(
            debate=debate,
            type=tournament_events.MATCH_TURNS,
            payload={"match": match.pk, "round": r, "kind": kind, "models": answered},
        )
        if failed:
            finished_event(debate, match)
    Turn.objects.bulk_create(turns)
    return SavedTurns(stop=None, matches=tuple(saved), turns=tuple(turns))


def keyed(spec: CallSpec, match_key: Any, model: str) -> CallSpec:
    """The spec tagged with its match (an id, or ("slot", n) before the match exists)."""
    return dataclasses.replace(spec, tag=(match_key, model))
