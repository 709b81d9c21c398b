"""A tournament stage's round: the bracket round and the match round in one number, both read back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.state import ROUND_BASE, split_round, stage_round


def test_it_packs_and_unpacks_known_rounds() -> None:
    assert stage_round(2, 3) == 203 and split_round(203) == (2, 3)
    assert stage_round(1, 0) == 100 and split_round(100) == (1, 0)


@given(st.integers(0, 20), st.integers(0, ROUND_BASE - 1))
def test_it_reads_back_every_pair_it_packs(bracket_round: int, match_round: int) -> None:
    assert split_round(stage_round(bracket_round, match_round)) == (bracket_round, match_round)


@pytest.mark.parametrize(("bracket_round", "match_round"), [(1, ROUND_BASE), (1, -1), (-1, 0)])
def test_it_refuses_a_round_that_would_spill_into_another(bracket_round, match_round) -> None:
    with pytest.raises(ValueError):
        stage_round(bracket_round, match_round)
