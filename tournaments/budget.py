"""The money side of a tournament: refusing an estimate over budget, and
sharing the budget across bracket rounds.

Amounts are US dollars as ``Decimal``, kept to the millionth of a dollar
(``MONEY_QUANTUM``): one model call can cost a fraction of a cent, so cents
would round small calls to nothing.

Allocation is front-loaded with the weights 0.4, 0.3, 0.2, 0.1 for rounds
1-4: the first round has the most matches, so it gets the most money. With
fewer than four rounds (2 models: 1 round; 3-4 models: 2; 5 models: 3) the
first weights are kept and renormalised to sum to one, so their proportions
stay the same: 2 rounds get 4/7 and 3/7, 3 rounds 4/9, 3/9 and 2/9, and a
single round gets everything. Each share is rounded down to the quantum and
whatever rounding leaves over goes to round 1, so the shares always add up
to exactly the budget.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal

__all__ = [
    "MONEY_QUANTUM",
    "ROUND_WEIGHTS",
    "BudgetExceeded",
    "allocate_rounds",
    "check_estimate",
    "match_allocation",
    "would_overrun",
]

MONEY_QUANTUM = Decimal("0.000001")
ROUND_WEIGHTS: tuple[Decimal, ...] = (
    Decimal("0.4"),
    Decimal("0.3"),
    Decimal("0.2"),
    Decimal("0.1"),
)


def _usd(amount: Decimal) -> str:
    # Cents are enough for a person reading the refusal; the figures on the
    # exception keep full precision.
    return f"${amount.quantize(Decimal('0.01'))}"


class BudgetExceeded(Exception):
    """The estimated cost of a tournament is above its budget."""

    def __init__(self, *, estimated: Decimal, limit: Decimal) -> None:
        self.estimated = estimated
        self.limit = limit
        self.overage = estimated - limit
        super().__init__(
            f"This tournament is estimated to cost {_usd(estimated)}, which is "
            f"{_usd(self.overage)} over its budget of {_usd(limit)}. Raise the budget, "
            "or use fewer models or fewer rounds."
        )


def check_estimate(*, estimated: Decimal, limit: Decimal) -> None:
    """Raise ``BudgetExceeded`` when ``estimated`` is above ``limit`` (equal is fine)."""
    if limit < 0 or estimated < 0:
        raise ValueError("A budget and an estimate cannot be negative.")
    if estimated > limit:
        raise BudgetExceeded(estimated=estimated, limit=limit)


def allocate_rounds(budget: Decimal, rounds: int) -> list[Decimal]:
    """The budget for each bracket round, round 1 first; see the module docstring."""
    if not 1 <= rounds <= len(ROUND_WEIGHTS):
        raise ValueError(f"A tournament has 1 to {len(ROUND_WEIGHTS)} rounds, not {rounds}.")
    if budget < 0:
        raise ValueError("A budget cannot be negative.")
    weights = ROUND_WEIGHTS[:rounds]
    total = sum(weights)
    shares = [(budget * w / total).quantize(MONEY_QUANTUM, rounding=ROUND_DOWN) for w in weights]
    shares[0] += budget - sum(shares)
    return shares


def match_allocation(round_budget: Decimal, matches: int) -> Decimal:
    """One match's share of its round's budget (byes are not matches and get nothing)."""
    if matches < 1:
        raise ValueError("A round with a budget has at least one match.")
    return (round_budget / matches).quantize(MONEY_QUANTUM, rounding=ROUND_DOWN)


def would_overrun(*, spent: Decimal, next_call: Decimal, allocation: Decimal) -> bool:
    """Whether making the next call would take a match past its allocation.

    Asked before each call, so a match stops cleanly between calls instead of
    discovering afterwards that it spent too much.
    """
    return spent + next_call > allocation
