"""Elo ratings per (model, decision type) for model tournaments.

The arithmetic is Arpad Elo's rating system as FIDE uses it for chess,
with these figures:

* every (model, decision type) starts at ``INITIAL_RATING`` = 1200;
* the expected score of A against B is ``1 / (1 + 10 ** ((Rb - Ra) / 400))``;
* after a match ``Ra' = Ra + K * (Sa - Ea)`` with ``K = 32`` and
  ``Sa`` = 1 for a win, 0 for a loss and 0.5 for a draw; a *disputed*
  match (one that never converged) counts as a draw.

Numbers are ``Decimal`` throughout and ratings are kept to two decimal
places. The change is computed once for A, rounded half-even to 0.01, and
B receives exactly its negative, so every update is zero-sum to the cent:
the sum of the two ratings never drifts, however many matches are played.
(Computing both sides separately and rounding each could lose or create a
hundredth of a point per match.)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from decimal import ROUND_HALF_EVEN, Decimal

__all__ = [
    "INITIAL_RATING",
    "K_FACTOR",
    "DecisionType",
    "Outcome",
    "RatingKey",
    "apply_match",
    "expected_score",
    "outcome_for",
    "rating_change",
    "update_ratings",
]

INITIAL_RATING = Decimal("1200")
K_FACTOR = Decimal("32")
RATING_QUANTUM = Decimal("0.01")


class DecisionType(enum.StrEnum):
    """The kinds of question a tournament can be about; ratings are kept per kind."""

    DATABASE = "database"
    CACHE = "cache"
    MESSAGING = "messaging"
    API = "api"
    STORAGE = "storage"
    # The product's own kinds, beyond the software-architecture ones.
    POLICY = "policy"
    ETHICS = "ethics"
    SCIENCE = "science"
    OTHER = "other"


class Outcome(enum.Enum):
    """A match's result seen from model A; the value is A's Elo score."""

    WIN = Decimal("1")
    DRAW = Decimal("0.5")
    LOSS = Decimal("0")


RatingKey = tuple[str, DecisionType]
"""(model id, decision type): the unit a rating belongs to."""


def _as_decimal(value: Decimal | int | str) -> Decimal:
    if isinstance(value, float):
        # A float would carry binary noise into the ratings; make callers choose.
        raise TypeError("Pass ratings as Decimal, int or str, not float.")
    return Decimal(value)


def expected_score(rating_a: Decimal | int | str, rating_b: Decimal | int | str) -> Decimal:
    """A's expected score against B, between 0 and 1 (unrounded)."""
    ra, rb = _as_decimal(rating_a), _as_decimal(rating_b)
    return 1 / (1 + Decimal(10) ** ((rb - ra) / 400))


def outcome_for(*, model_a: str, winner: str | None, is_disputed: bool) -> Outcome:
    """A's outcome: a disputed match, or one without a winner, is a draw."""
    if is_disputed or winner is None:
        return Outcome.DRAW
    return Outcome.WIN if winner == model_a else Outcome.LOSS


def rating_change(
    rating_a: Decimal | int | str, rating_b: Decimal | int | str, outcome: Outcome
) -> Decimal:
    """How many points A gains (negative: loses), rounded half-even to 0.01."""
    raw = K_FACTOR * (outcome.value - expected_score(rating_a, rating_b))
    return raw.quantize(RATING_QUANTUM, rounding=ROUND_HALF_EVEN)


def update_ratings(
    rating_a: Decimal | int | str, rating_b: Decimal | int | str, outcome: Outcome
) -> tuple[Decimal, Decimal]:
    """The new (A, B) ratings after a match; B gets exactly what A loses."""
    ra, rb = _as_decimal(rating_a), _as_decimal(rating_b)
    change = rating_change(ra, rb, outcome)
    return (ra + change).quantize(RATING_QUANTUM), (rb - change).quantize(RATING_QUANTUM)


def apply_match(
    ratings: Mapping[RatingKey, Decimal],
    *,
    model_a: str,
    model_b: str,
    decision_type: DecisionType,
    outcome: Outcome,
) -> dict[RatingKey, Decimal]:
    """A copy of ``ratings`` with one match applied; unknown keys start at 1200.

    The input is not changed, so a caller that writes the ratings in the same
    transaction as the match result can compute first and store once.
    """
    if model_a == model_b:
        raise ValueError("A model cannot play a match against itself.")
    decision_type = DecisionType(decision_type)
    key_a, key_b = (model_a, decision_type), (model_b, decision_type)
    new_a, new_b = update_ratings(
        ratings.get(key_a, INITIAL_RATING), ratings.get(key_b, INITIAL_RATING), outcome
    )
    updated = dict(ratings)
    updated[key_a], updated[key_b] = new_a, new_b
    return updated
