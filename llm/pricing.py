"""Usage -> US dollars, from a price table per million tokens.

The table is the site's one setting, ``settings.LLM_PRICES`` (config/settings.py):
prices change without a change to this package, which holds only the arithmetic
and, framework-free, is handed the table by its callers.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from decimal import Decimal

from llm.usage import Usage

__all__ = ["PriceTable", "cost_usd", "price_for"]

log = logging.getLogger(__name__)

PriceTable = Mapping[str, Mapping[str, Decimal | float | int | str]]

_CACHE_WRITE_FACTOR = Decimal("1.25")
_CACHE_READ_FACTOR = Decimal("0.1")
_PER = Decimal(1_000_000)
_warned_models: set[str] = set()


def _decimal(value: Decimal | float | int | str) -> Decimal:
    # str() first, so 0.1 (a float from a settings file) becomes exactly 0.1.
    return value if isinstance(value, Decimal) else Decimal(str(value))


def price_for(*, model: str, prices: PriceTable) -> Mapping[str, Decimal] | None:
    """The price entry for ``model``, or None when nothing matches.

    Lookup order: exact name; else the longest key that ``model`` starts with
    (so a dated snapshot such as ``claude-haiku-5-5-20261001`` pays its
    family's price); else the ``"default"`` key. Missing ``cache_write`` /
    ``cache_read`` prices are derived from ``input`` (x1.25 / x0.1).
    """
    entry = prices.get(model)
    if entry is None:
        prefixes = [key for key in prices if key != "default" and model.startswith(key)]
        entry = prices[max(prefixes, key=len)] if prefixes else prices.get("default")
    if entry is None:
        return None
    table = {name: _decimal(value) for name, value in entry.items()}
    table.setdefault("input", Decimal(0))
    table.setdefault("output", Decimal(0))
    table.setdefault("cache_write", table["input"] * _CACHE_WRITE_FACTOR)
    table.setdefault("cache_read", table["input"] * _CACHE_READ_FACTOR)
    return table


def cost_usd(*, model: str, usage: Usage, prices: PriceTable) -> Decimal:
    """Exact dollar cost of ``usage`` (not rounded: ledgers sum many small calls).

    An unpriced model costs Decimal(0) and logs one warning per model name:
    a missing price must not fail a debate mid-way, but must not go unseen.
    """
    table = price_for(model=model, prices=prices)
    if table is None:
        if model not in _warned_models:
            _warned_models.add(model)
            log.warning("llm: no price for model %r; counting its calls as $0", model)
        return Decimal(0)
    total = (
        usage.input_tokens * table["input"]
        + usage.output_tokens * table["output"]
        + usage.cache_creation_input_tokens * table["cache_write"]
        + usage.cache_read_input_tokens * table["cache_read"]
    )
    return total / _PER
