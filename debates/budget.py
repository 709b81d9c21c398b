"""Cost estimates: before a debate starts, and before each stage runs.

Before a stage the prompts are known, so input tokens are estimated from
their length (about 4 characters per token, plus the JSON schema), and output
tokens from what each kind of call usually writes. Before a debate only the
shape is known, so the estimate also assumes how the graph grows: about 3
opening arguments per persona and at most 2 new nodes per persona per round.
Both are estimates, priced with settings.LLM_PRICES at full input price
(prompt caching only makes real calls cheaper).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from decimal import Decimal

from debates.calls import CallSpec
from llm import PriceTable, Usage, cost_usd

__all__ = [
    "estimate_call_cost",
    "estimate_debate_cost",
    "estimate_stage_cost",
    "expected_output_tokens",
]

CHARS_PER_TOKEN = 4
SCHEMA_TOKENS = 350
OUTPUT_TOKENS = {"decompose": 250, "arguments": 900, "attacks": 900}
VALIDATION_TOKENS_BASE = 60
VALIDATION_TOKENS_PER_ATTACK = 110
# Prompt sizes when nothing is written yet (system + instructions + topic).
BASE_PROMPT_TOKENS = 450
TOKENS_PER_ARGUMENT_LINE = 120
TOKENS_PER_ATTACK_LINE = 110
OPENING_ARGUMENTS_PER_PERSONA = 3
NEW_NODES_PER_PERSONA_ROUND = 2


def expected_output_tokens(*, stage: str, attacks: int = 0) -> int:
    if stage == "validation":
        return VALIDATION_TOKENS_BASE + VALIDATION_TOKENS_PER_ATTACK * attacks
    return OUTPUT_TOKENS[stage]


def _price(*, model: str, input_tokens: int, output_tokens: int, prices: PriceTable) -> Decimal:
    usage = Usage(input_tokens=input_tokens, output_tokens=output_tokens)
    return cost_usd(model=model, usage=usage, prices=prices)


def estimate_call_cost(spec: CallSpec, *, prices: PriceTable) -> Decimal:
    chars = len(spec.prompt.system) + len(json.dumps(spec.prompt.messages, ensure_ascii=False))
    input_tokens = math.ceil(chars / CHARS_PER_TOKEN) + SCHEMA_TOKENS
    output_tokens = min(spec.max_tokens, spec.expected_output_tokens)
    return _price(
        model=spec.model, input_tokens=input_tokens, output_tokens=output_tokens, prices=prices
    )


def estimate_stage_cost(specs: Iterable[CallSpec], *, prices: PriceTable) -> Decimal:
    return sum((estimate_call_cost(spec, prices=prices) for spec in specs), Decimal(0))


def estimate_debate_cost(
    *, persona_models: Sequence[str], rounds: int, cheap_model: str, prices: PriceTable
) -> Decimal:
    """What a whole debate would cost if it ran all its rounds (1 + P + R·(P+1) calls)."""
    p = len(persona_models)
    total = _price(
        model=cheap_model,
        input_tokens=BASE_PROMPT_TOKENS,
        output_tokens=OUTPUT_TOKENS["decompose"],
        prices=prices,
    )
    for model in persona_models:
        total += _price(
            model=model,
            input_tokens=BASE_PROMPT_TOKENS,
            output_tokens=OUTPUT_TOKENS["arguments"],
            prices=prices,
        )
    nodes = OPENING_ARGUMENTS_PER_PERSONA * p
    edges = 0
    for _ in range(rounds):
        prompt = BASE_PROMPT_TOKENS + TOKENS_PER_ARGUMENT_LINE * nodes + 20 * edges
        for model in persona_models:
            total += _price(
                model=model,
                input_tokens=prompt,
                output_tokens=OUTPUT_TOKENS["attacks"],
                prices=prices,
            )
        new = NEW_NODES_PER_PERSONA_ROUND * p
        total += _price(
            model=cheap_model,
            input_tokens=BASE_PROMPT_TOKENS
            + TOKENS_PER_ATTACK_LINE * new
            + TOKENS_PER_ARGUMENT_LINE * min(nodes, new),
            output_tokens=expected_output_tokens(stage="validation", attacks=new),
            prices=prices,
        )
        nodes += new
        edges += new
    return total
