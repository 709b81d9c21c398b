"""The arbiter's utility per agent: a Brier-score bonus minus penalties for violations.

The Brier score (G. W. Brier, "Verification of forecasts expressed in terms of
probability", Monthly Weather Review 78(1), 1950) of n binary forecasts is

    BS = (1/n) · Σᵢ (fᵢ − oᵢ)²

with fᵢ ∈ [0, 1] the stated probability and oᵢ ∈ {0, 1} what happened. 0 is a perfect
forecaster, 1 the worst; always saying 0.5 scores 0.25. Here fᵢ is an agent's stated
confidence that its position holds and oᵢ is 1 when the arbiter's resolution upheld it.

    utility = (1 − BS) − penalty_per_violation × violations

so a well-calibrated agent earns up to 1, and every gate violation (No-Free-Facts,
Muḥāsabah) costs `penalty_per_violation` (0.1 by default). An agent with no resolved
forecast has no Brier bonus (0). Arithmetic is in Decimal so equal inputs give equal
utilities on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

__all__ = ["DEFAULT_PENALTY", "agent_utility", "brier_score"]

DEFAULT_PENALTY = Decimal("0.1")


def _probability(value: float | Decimal | str) -> Decimal:
    number = Decimal(str(value))
    if not (0 <= number <= 1):
        raise ValueError(f"A confidence is between 0 and 1, not {value}.")
    return number


def brier_score(forecasts: Sequence[float | Decimal], outcomes: Sequence[bool]) -> Decimal:
    """Mean squared difference between stated probabilities and 0/1 outcomes."""
    if len(forecasts) != len(outcomes):
        raise ValueError("Give one outcome per forecast.")
    if not forecasts:
        raise ValueError("A Brier score needs at least one forecast.")
    total = sum(
        (
            (_probability(f) - (1 if o else 0)) ** 2
            for f, o in zip(forecasts, outcomes, strict=True)
        ),
        Decimal(0),
    )
    return total / len(forecasts)


def agent_utility(
    forecasts: Sequence[float | Decimal],
    outcomes: Sequence[bool],
    *,
    violations: int = 0,
    penalty_per_violation: Decimal = DEFAULT_PENALTY,
) -> Decimal:
    """(1 − Brier) − penalty × violations; no forecast → no bonus."""
    if violations < 0:
        raise ValueError("A violation count cannot be negative.")
    bonus = Decimal(1) - brier_score(forecasts, outcomes) if forecasts else Decimal(0)
    return bonus - penalty_per_violation * violations
