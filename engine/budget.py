"""What a stage will cost, estimated before it runs (the budget stop reads it).

The prompts are known before a stage, so input tokens are estimated from their
length (about 4 characters per token, plus the JSON schema), and output tokens
from what the format says each call usually writes (``CallSpec.
expected_output_tokens``, capped by ``max_tokens``). Priced with
settings.LLM_PRICES at full input price (prompt caching only makes real calls
cheaper). A format's estimate of a whole run before it starts is its own (the
graph debate's in debates/budget.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from decimal import Decimal

from engine.calls import CallSpec
from llm import PriceTable, Usage, cost_usd

__all__ = ["estimate_call_cost", "estimate_stage_cost", "price_tokens"]

CHARS_PER_TOKEN = 4
SCHEMA_TOKENS = 350


def price_tokens(
    *, model: str, input_tokens: int, output_tokens: int, prices: PriceTable
) -> Decimal:
    """What so many tokens in and out cost on ``model``."""
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return cost_usd(model=model, usage=usage, prices=prices)


def estimate_call_cost(spec: CallSpec, *, prices: PriceTable) -> Decimal:
    chars = len(spec.prompt.system) + len(json.dumps(spec.prompt.messages, ensure_ascii=False))
    input_tokens = math.ceil(chars / CHARS_PER_TOKEN) + SCHEMA_TOKENS
    output_tokens = min(spec.max_tokens, spec.expected_output_tokens)
    return price_tokens(
        model=spec.model, input_tokens=input_tokens, output_tokens=output_tokens, prices=prices
    )


def estimate_stage_cost(specs: Iterable[CallSpec], *, prices: PriceTable) -> Decimal:
    return sum((estimate_call_cost(spec, prices=prices) for spec in specs), Decimal(0))
