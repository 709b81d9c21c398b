"""What the tournament pages show, built from the rows. Views only call these."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from statistics import mean
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count, Q, Sum
from django.utils.translation import gettext as _

from engine.models import Debate
from tournaments import notices
from tournaments.bracket import round_count
from tournaments.charts import line_chart
from tournaments.models import Match, MatchStatus, Rating, RatingChange, Tournament, Turn, TurnKind
from tournaments.services import estimate_tournament_cost

__all__ = [
    "bracket",
    "convergence_chart",
    "estimate_from",
    "health",
    "leaderboard",
    "rating_chart",
    "transcript",
]


def estimate_from(*, models: list[str], max_rounds: Any, context: str = "") -> dict:
    """The estimate box: cost of the whole tournament if every match ran every round."""
    try:
        rounds = int(max_rounds)
    except (TypeError, ValueError):
        rounds = 0
    if not 2 <= len(models) <= 5 or not 1 <= rounds <= 5:
        return {"ready": False}
    cost = estimate_tournament_cost(
        models=models,
        max_rounds=rounds,
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
        context=context or "",
    )
    return {"ready": True, "cost": cost, "matches": len(models) - 1, "rounds": rounds}


def bracket(tournament: Tournament) -> list[dict]:
    """Bracket rounds, each with its matches so far (and how many are still to come)."""
    matches = list(tournament.matches.all())
    rounds = round_count(len(tournament.model_ids)) if tournament.model_ids else 0
    by_round: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_round[m.bracket_round].append(m)
    return [{"number": br, "matches": by_round.get(br, [])} for br in range(1, rounds + 1)]


def transcript(match: Match) -> list[dict]:
    """The match's turns in order, each with its convergence score (after a defence round)."""
    scores = {c["round"]: c for c in match.convergence_scores}
    rows = []
    for turn in Turn.objects.filter(match=match).order_by("round", "id"):
        rows.append({"turn": turn, "content": turn.content, "convergence": None})
    # The convergence of round r shows after the last defence of that round.
    for r, entry in scores.items():
        defences = [row for row in rows if row["turn"].round == r and row["turn"].kind == "defence"]
        if defences:
            method = notices.method_name(str(entry.get("method", "")))
            defences[-1]["convergence"] = {**entry, "method_name": method}
    return rows


def convergence_chart(match: Match):
    points = [(str(c["round"]), float(c["score"])) for c in match.convergence_scores]
    # The series' name is the chart's legend: a word of the page, in its language.
    return line_chart({_("convergence"): points}, low=0, high=100) if points else None


def _confidences(decision_type: str) -> dict[str, float]:
    found: dict[str, list[float]] = defaultdict(list)
    turns = Turn.objects.filter(
        kind=TurnKind.INITIAL, match__tournament__decision_type=decision_type
    ).values_list("model", "content")
    for model, content in turns:
        value = content.get("confidence")
        if isinstance(value, int | float):
            found[model].append(float(value))
    return {model: round(mean(values), 2) for model, values in found.items()}


def _speeds(decision_type: str) -> dict[str, float]:
    found: dict[str, list[int]] = defaultdict(list)
    converged = Match.objects.filter(
        tournament__decision_type=decision_type, status=MatchStatus.CONVERGED
    ).values_list("model_a", "model_b", "rounds")
    for a, b, rounds in converged:
        found[a].append(rounds)
        found[b].append(rounds)
    return {model: round(mean(values), 2) for model, values in found.items()}


def leaderboard(decision_type: str) -> list[dict]:
    confidence, speed = _confidences(decision_type), _speeds(decision_type)
    return [
        {
            "rating": r,
            "confidence": confidence.get(r.model),
            "speed": speed.get(r.model),
        }
        for r in Rating.objects.filter(decision_type=decision_type).order_by("-rating", "model")
    ]


def rating_chart(decision_type: str):
    """Each model's rating after each of its matches (starting from its first 'before')."""
    series: dict[str, list[tuple[str, float]]] = {}
    changes = (
        RatingChange.objects.filter(rating__decision_type=decision_type)
        .select_related("rating")
        .order_by("created_at", "id")
    )
    for change in changes:
        points = series.setdefault(change.rating.model, [("0", float(change.before))])
        points.append((str(len(points)), float(change.after)))
    if not series:
        return None, []
    rows = [
        {"model": model, "values": [value for _, value in points]}
        for model, points in series.items()
    ]
    return line_chart(series), rows


def health(debates) -> dict:
    """System health over the tournaments in ``debates`` (a Debate queryset)."""
    matches = Match.objects.filter(tournament__debate__in=debates).exclude(
        status=MatchStatus.RUNNING
    )
    counts = matches.aggregate(
        finished=Count("id"),
        converged=Count("id", filter=Q(status=MatchStatus.CONVERGED)),
        failed=Count("id", filter=Q(status=MatchStatus.FAILED)),
        rounds=Avg("rounds", filter=Q(status=MatchStatus.CONVERGED)),
        cost=Avg("cost_usd"),
    )
    cache = Tournament.objects.filter(debate__in=debates).aggregate(
        hits=Sum("cache_hits"), misses=Sum("cache_misses")
    )
    hits, misses = cache["hits"] or 0, cache["misses"] or 0
    finished = counts["finished"]

    def share(n: int) -> float | None:
        return round(100 * n / finished, 1) if finished else None

    return {
        "tournaments": Tournament.objects.filter(debate__in=debates).count(),
        "matches": finished,
        "convergence_rate": share(counts["converged"]),
        "rounds_to_converge": round(counts["rounds"], 2) if counts["rounds"] is not None else None,
        "cost_per_match": Decimal(counts["cost"]).quantize(Decimal("0.0001"))
        if counts["cost"] is not None
        else None,
        "cache_hit_rate": round(100 * hits / (hits + misses), 1) if hits + misses else None,
        "failure_rate": share(counts["failed"]),
    }


def tournament_debates(visible) -> Any:
    return visible.filter(format="tournament")


def demo_tournament() -> Debate | None:
    return Debate.objects.filter(format="tournament", is_demo=True).order_by("pk").first()
