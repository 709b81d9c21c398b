"""The arbiter's Brier utility against known answers and a float reference."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inquiries.scoring import agent_utility, brier_score


@pytest.mark.parametrize(
    ("forecasts", "outcomes", "score"),
    [
        ([1.0], [True], Decimal(0)),
        ([0.0], [True], Decimal(1)),
        ([0.5, 0.5], [True, False], Decimal("0.25")),
        ([0.9, 0.2], [True, False], Decimal("0.025")),  # (0.01 + 0.04) / 2
        ([0.7], [False], Decimal("0.49")),
    ],
)
def test_it_scores_known_forecasts(forecasts, outcomes, score: Decimal) -> None:
    assert brier_score(forecasts, outcomes) == score


def test_utility_is_one_minus_brier_minus_penalties() -> None:
    assert agent_utility([0.9, 0.2], [True, False]) == Decimal("0.975")
    assert agent_utility([0.9, 0.2], [True, False], violations=2) == Decimal("0.775")
    assert agent_utility(
        [0.9], [True], violations=1, penalty_per_violation=Decimal("0.25")
    ) == Decimal("0.74")
    assert agent_utility([], [], violations=3) == Decimal("-0.3")


def test_it_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="one outcome per forecast"):
        brier_score([0.5], [])
    with pytest.raises(ValueError, match="at least one"):
        brier_score([], [])
    with pytest.raises(ValueError, match="between 0 and 1"):
        brier_score([1.5], [True])
    with pytest.raises(ValueError, match="negative"):
        agent_utility([0.5], [True], violations=-1)


probabilities = st.floats(min_value=0, max_value=1, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(probabilities, st.booleans()), min_size=1, max_size=20))
def test_it_matches_a_float_reference_and_stays_in_range(pairs) -> None:
    forecasts = [p for p, _ in pairs]
    outcomes = [o for _, o in pairs]
    reference = sum((p - o) ** 2 for p, o in pairs) / len(pairs)
    score = brier_score(forecasts, outcomes)
    assert float(score) == pytest.approx(reference, abs=1e-12)
    assert 0 <= score <= 1


@settings(max_examples=100, deadline=None)
@given(probabilities)
def test_a_forecast_nearer_the_outcome_never_scores_worse(p: float) -> None:
    nearer = (p + 1) / 2
    assert brier_score([nearer], [True]) <= brier_score([p], [True])
