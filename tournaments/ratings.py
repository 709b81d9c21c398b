"""A decided match moves both models' Elo ratings, exactly once (tournaments/elo.py is the arithmetic)."""

from __future__ import annotations

from tournaments.elo import DecisionType, apply_match, outcome_for
from tournaments.models import Match, Rating, RatingChange

__all__ = ["apply_elo"]

# What a match changes in a rating row (its other columns stay as they are).
_COUNTED = ["rating", "matches_played", "matches_won", "draws", "updated_at"]


def apply_elo(match: Match, decision_type: str) -> dict[str, list[str]]:
    """Update both ratings with the match, in the caller's transaction, exactly once.

    Returns {model: [before, after]} for the event.
    """
    if RatingChange.objects.filter(match=match.pk).exists():
        return {}
    models = (match.model_a, match.model_b)
    # Both ratings locked in one query; a model's first match creates its row.
    found = {
        r.model: r
        for r in Rating.objects.select_for_update().filter(
            model__in=models, decision_type=decision_type
        )
    }
    ratings = {
        model: found.get(model)
        or Rating.objects.select_for_update().get_or_create(
            model=model, decision_type=decision_type
        )[0]
        for model in models
    }
    kind = DecisionType(decision_type)
    current = {(model, kind): r.rating for model, r in ratings.items()}
    outcome = outcome_for(model_a=match.model_a, winner=match.winner, is_disputed=match.is_disputed)
    updated = apply_match(
        current, model_a=match.model_a, model_b=match.model_b, decision_type=kind, outcome=outcome
    )
    changes: dict[str, list[str]] = {}
    records: list[RatingChange] = []
    for model, rating in ratings.items():
        before = rating.rating
        rating.rating = updated[(model, kind)]
        rating.matches_played += 1
        if match.is_disputed:
            rating.draws += 1
        elif model == match.winner:
            rating.matches_won += 1
        rating.save(update_fields=_COUNTED)  # updated_at: auto_now
        records.append(RatingChange(rating=rating, match=match, before=before, after=rating.rating))
        changes[model] = [str(before), str(rating.rating)]
    RatingChange.objects.bulk_create(records)
    return changes
