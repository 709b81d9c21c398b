import logging
from decimal import Decimal

import pytest
from django.conf import settings

from llm import Usage, cost_usd

MILLION = 1_000_000


def test_it_prices_each_token_kind_per_million():
    usage = Usage(
        input_tokens=2 * MILLION,
        output_tokens=3 * MILLION,
        cache_creation_input_tokens=4 * MILLION,
        cache_read_input_tokens=5 * MILLION,
    )
    table = settings.LLM_PRICES["claude-sonnet-5-5"]
    expected = (
        2 * table["input"]
        + 3 * table["output"]
        + 4 * table["cache_write"]
        + 5 * table["cache_read"]
    )
    assert cost_usd(model="claude-sonnet-5-5", usage=usage, prices=settings.LLM_PRICES) == expected


def test_it_matches_the_late_2026_list_prices():
    haiku, sonnet, opus = (
        settings.LLM_PRICES[name]
        for name in ("claude-haiku-5-5", "claude-sonnet-5-5", "claude-opus-5-5")
    )
    assert (haiku["input"], haiku["output"]) == (Decimal("0.10"), Decimal("0.50"))
    assert (sonnet["input"], sonnet["output"]) == (Decimal("2"), Decimal("10"))
    assert (opus["input"], opus["output"]) == (Decimal("4"), Decimal("20"))
    for table in (haiku, sonnet, opus):
        assert table["cache_read"] == table["input"] / 10


def test_it_is_exact_for_small_calls():
    usage = Usage(input_tokens=1, output_tokens=1)
    cost = cost_usd(model="claude-haiku-5-5", usage=usage, prices=settings.LLM_PRICES)
    assert cost == Decimal("0.0000006")


def test_it_reads_float_prices_without_binary_noise():
    prices = {"m": {"input": 0.1, "output": 0.3}}
    cost = cost_usd(
        model="m", usage=Usage(input_tokens=MILLION, output_tokens=MILLION), prices=prices
    )
    assert cost == Decimal("0.4")


def test_it_derives_missing_cache_prices_from_input():
    prices = {"m": {"input": "2", "output": "10"}}
    usage = Usage(cache_creation_input_tokens=MILLION, cache_read_input_tokens=MILLION)
    assert cost_usd(model="m", usage=usage, prices=prices) == Decimal("2") * Decimal(
        "1.25"
    ) + Decimal("2") * Decimal("0.1")


def test_it_prices_a_dated_snapshot_by_its_longest_matching_prefix():
    prices = {"claude": {"input": 1, "output": 1}, "claude-haiku-5-5": {"input": 7, "output": 0}}
    usage = Usage(input_tokens=MILLION)
    assert cost_usd(model="claude-haiku-5-5-20261001", usage=usage, prices=prices) == 7
    assert cost_usd(model="claude-other", usage=usage, prices=prices) == 1


def test_it_falls_back_to_the_default_entry():
    prices = {"default": {"input": 3, "output": 0}, "x": {"input": 9, "output": 9}}
    assert cost_usd(model="unknown", usage=Usage(input_tokens=MILLION), prices=prices) == 3


def test_it_counts_an_unpriced_model_as_free_and_says_so(caplog: pytest.LogCaptureFixture):
    with caplog.at_level(logging.WARNING, logger="llm.pricing"):
        cost = cost_usd(
            model="no-such-model-for-pricing-test", usage=Usage(input_tokens=5), prices={}
        )
    assert cost == 0
    assert "no-such-model-for-pricing-test" in caplog.text


def test_it_sums_usages():
    total = Usage(1, 2, 3, 4) + Usage(10, 20, 30, 40)
    assert total == Usage(11, 22, 33, 44)
