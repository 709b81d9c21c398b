"""A tournament as JSON: the page's download and the command line's ``--export-format json``.

Format ``argue-tournament``, version 1 (schemas/argue-tournament.v1.schema.json):
the settings it ran with (question, decision type, models, size, rounds,
convergence threshold, diversity, cache, context, case file), its budget, estimate
and cost, its status and stop, each match (the bracket's facts, the arbiter's
scores and reasons, convergence per round, every turn of its transcript), the
Elo ratings each match moved (before and after, per model and per match) and the
stored result. Money is a decimal string; ratings are decimal strings too.
"""

from __future__ import annotations

from typing import Any

from engine.models import Debate
from engine.wording import money_text, time_text
from tournaments.models import RatingChange, Tournament, Turn
from tournaments.result import match_fields

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "tournament_json"]

EXPORT_FORMAT = "argue-tournament"
EXPORT_VERSION = 1


def _turns(match_id: int, turns: list[Turn]) -> list[dict[str, Any]]:
    return [
        {
            "round": t.round,
            "kind": t.kind,
            "model": t.model,
            "content": t.content,
            "research": t.tool_calls,
            "sentBack": t.sent_back,
            "costUsd": str(t.cost_usd),
        }
        for t in turns
        if t.match_id == match_id
    ]


def _ratings(changes: list[RatingChange]) -> list[dict[str, Any]]:
    """Per model (and decision type): its rating before the first match here, after the last."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for change in changes:
        key = (change.rating.model, change.rating.decision_type)
        entry = found.setdefault(
            key,
            {"model": key[0], "decisionType": key[1], "before": str(change.before), "matches": 0},
        )
        entry["after"] = str(change.after)
        entry["matches"] += 1
    return list(found.values())


def tournament_json(*, debate: Debate) -> dict[str, Any]:
    tournament: Tournament = debate.tournament
    matches = list(tournament.matches.order_by("bracket_round", "slot", "id"))
    turns = list(Turn.objects.filter(match__tournament=tournament).order_by("round", "id"))
    changes = list(
        RatingChange.objects.filter(match__tournament=tournament)
        .select_related("rating")
        .order_by("created_at", "id")
    )
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "id": debate.pk,
        "question": debate.topic,
        "isDemo": debate.is_demo,
        "status": debate.status,
        "stopReason": debate.stop_reason,
        "stopDetail": debate.stop_in_english,
        "stopCode": debate.stop_code,
        "stopParams": debate.stop_params,
        "decisionType": tournament.decision_type,
        "models": list(tournament.model_ids),
        "tournamentSize": tournament.tournament_size,
        "maxRounds": tournament.max_rounds,
        "convergenceThreshold": tournament.convergence_threshold,
        "forceDiversity": tournament.force_diversity,
        "noCache": tournament.no_cache,
        "context": tournament.context,
        "caseFile": tournament.case_file_id,
        "budgetUsd": money_text(debate.budget_usd),
        "estimatedCostUsd": money_text(tournament.estimated_cost_usd),
        "costUsd": money_text(debate.cost_usd),
        "cache": {"hits": tournament.cache_hits, "misses": tournament.cache_misses},
        "createdAt": time_text(debate.created_at),
        "startedAt": time_text(debate.started_at),
        "finishedAt": time_text(debate.finished_at),
        "matches": [
            {
                **match_fields(m),
                "convergence": m.convergence_scores,
                "positions": m.positions,
                "scores": m.scores,
                "winnerStrengths": m.winner_strengths,
                "loserWeaknesses": m.loser_weaknesses,
                "costUsd": str(m.cost_usd),
                "finishedAt": time_text(m.finished_at),
                "turns": _turns(m.pk, turns),
            }
            for m in matches
        ],
        "ratings": _ratings(changes),
        "ratingChanges": [
            {
                "match": c.match_id,
                "model": c.rating.model,
                "decisionType": c.rating.decision_type,
                "before": str(c.before),
                "after": str(c.after),
            }
            for c in changes
        ],
        "result": debate.output if debate.is_finished else None,
    }
