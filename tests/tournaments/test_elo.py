"""Elo arithmetic against values worked out by hand, and its zero-sum property."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.elo import (
    INITIAL_RATING,
    DecisionType,
    Outcome,
    apply_match,
    expected_score,
    outcome_for,
    update_ratings,
)

# 1400 against 1200: E = 1 / (1 + 10 ** (-200 / 400)) = 1 / (1 + 0.316228) = 0.759747
# win:  32 * (1   - 0.759747) =  7.688 -> +7.69
# draw: 32 * (0.5 - 0.759747) = -8.312 -> -8.31
# loss: 32 * (0   - 0.759747) = -24.312 -> -24.31


def test_it_expects_an_even_score_between_equal_ratings():
    assert expected_score(1200, 1200) == Decimal("0.5")


def test_it_expects_the_stronger_model_to_score_more():
    assert round(expected_score(1400, 1200), 6) == Decimal("0.759747")
    assert round(expected_score(1200, 1400), 6) == Decimal("0.240253")


def test_it_moves_sixteen_points_when_equal_ratings_play_a_decisive_match():
    assert update_ratings(1200, 1200, Outcome.WIN) == (Decimal("1216"), Decimal("1184"))
    assert update_ratings(1200, 1200, Outcome.LOSS) == (Decimal("1184"), Decimal("1216"))


def test_it_leaves_equal_ratings_alone_on_a_draw():
    assert update_ratings(1200, 1200, Outcome.DRAW) == (Decimal("1200"), Decimal("1200"))


def test_it_gives_the_favourite_little_for_a_win():
    assert update_ratings(1400, 1200, Outcome.WIN) == (Decimal("1407.69"), Decimal("1192.31"))


def test_it_costs_the_favourite_a_lot_in_an_upset():
    assert update_ratings(1400, 1200, Outcome.LOSS) == (Decimal("1375.69"), Decimal("1224.31"))


def test_it_costs_the_favourite_points_on_a_draw():
    assert update_ratings(1400, 1200, Outcome.DRAW) == (Decimal("1391.69"), Decimal("1208.31"))


def test_it_counts_a_disputed_match_as_a_draw_whoever_the_arbiter_picked():
    assert outcome_for(model_a="a", winner="a", is_disputed=True) is Outcome.DRAW
    assert outcome_for(model_a="a", winner="a", is_disputed=False) is Outcome.WIN
    assert outcome_for(model_a="a", winner="b", is_disputed=False) is Outcome.LOSS
    assert outcome_for(model_a="a", winner=None, is_disputed=False) is Outcome.DRAW


def test_it_keeps_ratings_per_model_and_decision_type():
    ratings = {("m1", DecisionType.DATABASE): Decimal("1300")}
    after = apply_match(
        ratings,
        model_a="m1",
        model_b="m2",
        decision_type=DecisionType.POLICY,
        outcome=Outcome.WIN,
    )
    # The policy ratings start fresh at 1200; the database rating is untouched.
    assert after[("m1", DecisionType.POLICY)] == Decimal("1216")
    assert after[("m2", DecisionType.POLICY)] == Decimal("1184")
    assert after[("m1", DecisionType.DATABASE)] == Decimal("1300")
    assert ratings == {("m1", DecisionType.DATABASE): Decimal("1300")}  # input unchanged


def test_it_accepts_decision_types_by_name_and_refuses_unknown_ones():
    after = apply_match({}, model_a="a", model_b="b", decision_type="cache", outcome=Outcome.DRAW)
    assert after[("a", DecisionType.CACHE)] == INITIAL_RATING
    with pytest.raises(ValueError):
        apply_match({}, model_a="a", model_b="b", decision_type="poetry", outcome=Outcome.WIN)


def test_it_lists_the_decision_types_of_the_issue():
    assert [t.value for t in DecisionType] == [
        "database",
        "cache",
        "messaging",
        "api",
        "storage",
        "policy",
        "ethics",
        "science",
        "other",
    ]


def test_it_refuses_a_match_against_itself_and_float_ratings():
    with pytest.raises(ValueError):
        apply_match({}, model_a="a", model_b="a", decision_type="api", outcome=Outcome.WIN)
    with pytest.raises(TypeError):
        update_ratings(1200.5, 1200, Outcome.WIN)


ratings = st.decimals(min_value=100, max_value=3000, places=2)


@given(ratings, ratings, st.sampled_from(list(Outcome)))
def test_it_never_changes_the_sum_of_the_two_ratings(ra, rb, outcome):
    new_a, new_b = update_ratings(ra, rb, outcome)
    assert new_a + new_b == ra + rb


@given(ratings, ratings, st.sampled_from(list(Outcome)))
def test_it_treats_both_sides_symmetrically(ra, rb, outcome):
    mirrored = {Outcome.WIN: Outcome.LOSS, Outcome.LOSS: Outcome.WIN, Outcome.DRAW: Outcome.DRAW}
    new_a, new_b = update_ratings(ra, rb, outcome)
    other_b, other_a = update_ratings(rb, ra, mirrored[outcome])
    # Rounding happens on the mover's side, so the mirror may differ by one hundredth.
    assert abs(new_a - other_a) <= Decimal("0.01")
    assert abs(new_b - other_b) <= Decimal("0.01")
    # A win never loses points, a loss never gains any, and no match moves more than K.
    change = new_a - ra
    assert -32 <= change <= 32
    if outcome is Outcome.WIN:
        assert change >= 0
    if outcome is Outcome.LOSS:
        assert change <= 0
