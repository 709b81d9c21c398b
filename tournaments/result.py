"""``TournamentResult``: what a finished tournament stores in ``Debate.output``.

Keys (JSON): ``finalWinner``, ``finalRecommendation``, ``matches`` (one dict
per match: bracket round, slot, models, status, winner, loser, rounds,
convergence per round, final convergence, disputed and why, failure reason,
arbiter reasoning, cost and cost per model), ``eliminationOrder`` (losers,
first out first), ``bracketRounds``, ``totalRounds`` (challenge/defence
rounds over all matches), ``totalCost``, ``averageConvergence``,
``strongestChallenge``, ``keyRefinements``, ``cache`` (hits, misses, hit
rate), ``semanticSkipped`` (why, when it was), ``stopReason``,
``stopCode`` and ``stopParams`` (why it stopped, worded when shown:
``tournaments.reports.stop_text``; a stop with no code keeps its sentence
as ``stopDetail``) and ``complete`` (False when the tournament stopped
before its final: budget, failure).
"""

from __future__ import annotations

from decimal import Decimal

from engine.models import Debate
from engine.stopping import StopDecision
from tournaments.models import Match, Turn, TurnKind
from tournaments.state import TournamentState

__all__ = ["MAX_REFINEMENTS", "match_fields", "tournament_result"]

MAX_REFINEMENTS = 10


def match_fields(m: Match) -> dict:
    """A match's fields as both JSON documents name them (this result and the export)."""
    return {
        "id": m.pk,
        "bracketRound": m.bracket_round,
        "slot": m.slot,
        "modelA": m.model_a,
        "modelB": m.model_b,
        "status": m.status,
        "winner": m.winner,
        "loser": m.loser,
        "rounds": m.rounds,
        "finalConvergence": m.final_convergence,
        "isDisputed": m.is_disputed,
        "disputedReason": m.disputed_reason,
        "budgetStopped": m.budget_stopped,
        "failureReason": m.failure_reason,
        "arbiterReasoning": m.arbiter_reasoning,
        "costs": m.costs,
    }


def _match_dict(m: Match) -> dict:
    return {
        **match_fields(m),
        "convergence": [c["score"] for c in m.convergence_scores],
        "cost": str(m.cost_usd),
    }


def _strongest_challenge(matches: list[Match]) -> dict | None:
    """The challenge the arbiter scored highest (ties: the earlier match)."""
    best = None
    for m in matches:
        for model, scores in (m.scores or {}).items():
            if best is None or scores["challenge"] > best[0]:
                best = (scores["challenge"], m, model)
    if best is None:
        return None
    score, m, model = best
    turn = (
        Turn.objects.filter(match=m, model=model, kind=TurnKind.CHALLENGE).order_by("round").first()
    )
    weaknesses = [
        w["weakness"] for w in (turn.content.get("critical_weaknesses", []) if turn else [])
    ]
    return {"model": model, "match": m.pk, "score": score, "weaknesses": weaknesses}


def _refinements(matches: list[Match]) -> list[str]:
    seen: list[str] = []
    turns = Turn.objects.filter(match__in=matches, kind=TurnKind.DEFENCE).order_by(
        "match__bracket_round", "match__slot", "round", "id"
    )
    for turn in turns:
        if turn.content.get("stance") != "updating":
            continue
        for change in turn.content.get("what_changed", []):
            item = f"{turn.model}: {change}"
            if item not in seen:
                seen.append(item)
    return seen[:MAX_REFINEMENTS]


def tournament_result(debate: Debate, decision: StopDecision, *, state: TournamentState) -> dict:
    tournament = debate.tournament
    matches = list(tournament.matches.order_by("bracket_round", "slot"))
    finals = [m for m in matches if m.bracket_round == state.bracket_rounds and m.winner]
    final = finals[0] if finals and not any(m.status == "running" for m in finals) else None
    winner = final.winner if final else ""
    recommendation = ""
    if final is not None:
        recommendation = final.positions.get(winner, "")
        if not recommendation:  # a forfeit: the winner's last word in the final
            view = next(m for m in state.matches if m.id == final.pk)
            recommendation = view.current(winner)
    finished = [m for m in matches if m.status != "running"]
    scores = [m.final_convergence for m in finished if m.final_convergence is not None]
    cost = Debate.objects.filter(pk=debate.pk).values_list("cost_usd", flat=True).get()
    skipped = next(
        (
            c["semantic_skipped"]
            for m in matches
            for c in m.convergence_scores
            if c.get("semantic_skipped")
        ),
        "",
    )
    asked = tournament.cache_hits + tournament.cache_misses
    return {
        "finalWinner": winner,
        "finalRecommendation": recommendation,
        "matches": [_match_dict(m) for m in matches],
        "eliminationOrder": [m.loser for m in finished if m.loser],
        "bracketRounds": state.bracket_rounds,
        "totalRounds": sum(m.rounds for m in matches),
        "totalCost": str(Decimal(cost)),
        "averageConvergence": round(sum(scores) / len(scores), 2) if scores else None,
        "strongestChallenge": _strongest_challenge(finished),
        "keyRefinements": _refinements(matches),
        "cache": {
            "hits": tournament.cache_hits,
            "misses": tournament.cache_misses,
            "hitRate": round(tournament.cache_hits / asked, 4) if asked else None,
        },
        "semanticSkipped": skipped,
        "stopReason": decision.reason.value,
        "stopCode": decision.code,
        "stopParams": decision.params,
        # Worded when shown, like the run's own stop (engine.orchestrator.finish).
        **({} if decision.code else {"stopDetail": decision.detail}),
        "complete": final is not None,
    }
