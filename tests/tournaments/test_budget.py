"""Budget refusal figures and the front-loaded allocation across bracket rounds."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.budget import (
    BudgetExceeded,
    allocate_rounds,
    check_estimate,
    match_allocation,
    would_overrun,
)


def test_it_refuses_an_estimate_over_the_budget_with_the_figures():
    with pytest.raises(BudgetExceeded) as caught:
        check_estimate(estimated=Decimal("2.754"), limit=Decimal("2.00"))
    error = caught.value
    assert error.estimated == Decimal("2.754")
    assert error.limit == Decimal("2.00")
    assert error.overage == Decimal("0.754")
    assert str(error) == (
        "This tournament is estimated to cost $2.75, which is $0.75 over its budget of "
        "$2.00. Raise the budget, or use fewer models or fewer rounds."
    )


def test_it_accepts_an_estimate_at_or_under_the_budget():
    check_estimate(estimated=Decimal("2.00"), limit=Decimal("2.00"))
    check_estimate(estimated=Decimal("0"), limit=Decimal("2.00"))
    with pytest.raises(ValueError):
        check_estimate(estimated=Decimal("-1"), limit=Decimal("2"))


def test_it_front_loads_four_rounds_by_the_issue_weights():
    assert allocate_rounds(Decimal("10"), 4) == [
        Decimal("4"),
        Decimal("3"),
        Decimal("2"),
        Decimal("1"),
    ]


def test_it_renormalises_the_first_weights_for_fewer_rounds():
    # 0.4 : 0.3 : 0.2 over 0.9 -> 4/9, 3/9, 2/9 of $9.
    assert allocate_rounds(Decimal("9"), 3) == [Decimal("4"), Decimal("3"), Decimal("2")]
    # 0.4 : 0.3 over 0.7 -> 4/7, 3/7 of $7.
    assert allocate_rounds(Decimal("7"), 2) == [Decimal("4"), Decimal("3")]
    assert allocate_rounds(Decimal("1.5"), 1) == [Decimal("1.5")]


def test_it_gives_the_rounding_remainder_to_the_first_round():
    assert allocate_rounds(Decimal("1"), 3) == [
        Decimal("0.444445"),
        Decimal("0.333333"),
        Decimal("0.222222"),
    ]


@given(
    st.decimals(min_value=0, max_value=1000, places=6),
    st.integers(min_value=1, max_value=4),
)
def test_it_allocates_exactly_the_budget_front_loaded(budget, rounds):
    shares = allocate_rounds(budget, rounds)
    assert len(shares) == rounds
    assert sum(shares) == budget
    assert shares == sorted(shares, reverse=True)


def test_it_refuses_a_round_count_it_has_no_weights_for():
    with pytest.raises(ValueError):
        allocate_rounds(Decimal("1"), 5)
    with pytest.raises(ValueError):
        allocate_rounds(Decimal("1"), 0)


def test_it_shares_a_round_between_its_matches():
    assert match_allocation(Decimal("4"), 2) == Decimal("2")
    assert match_allocation(Decimal("1"), 3) == Decimal("0.333333")
    with pytest.raises(ValueError):
        match_allocation(Decimal("1"), 0)


def test_it_tells_whether_the_next_call_would_overrun_the_match():
    allocation = Decimal("1.00")
    assert not would_overrun(
        spent=Decimal("0.60"), next_call=Decimal("0.40"), allocation=allocation
    )
    assert would_overrun(spent=Decimal("0.60"), next_call=Decimal("0.41"), allocation=allocation)
