"""Checks of limits.rates that hold on either cache (this process's memory, Redis)."""

from __future__ import annotations

import pytest

from limits import rates


def assert_a_hit_taken_in_a_failed_block_is_given_back(name: str) -> None:
    assert rates.take(name, "7", limit=2, period=60).allowed
    with pytest.raises(RuntimeError), rates.taking(name, "7", limit=2, period=60) as usage:
        assert usage.allowed
        raise RuntimeError("refused on other grounds")
    assert rates.check(name, "7", limit=2, period=60).count == 1
    with rates.taking(name, "7", limit=2, period=60) as usage:
        assert usage.allowed
    assert rates.check(name, "7", limit=2, period=60).count == 2
