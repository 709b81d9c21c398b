"""The graph debate's cost estimates: what each call writes, and a whole debate.

Output tokens are what each kind of call usually writes. Before a debate only
the shape is known, so the estimate assumes how the graph grows: about 3
opening arguments per persona and at most 2 new nodes per persona per round.
Priced by the engine (engine/budget.py), which also estimates each stage from
its prompts before it runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from engine.budget import price_tokens
from llm import PriceTable

__all__ = ["estimate_debate_cost", "expected_output_tokens"]

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


def estimate_debate_cost(
    *, persona_models: Sequence[str], rounds: int, cheap_model: str, prices: PriceTable
) -> Decimal:
    """What a whole debate would cost if it ran all its rounds (1 + P + R·(P+1) calls)."""
    p = len(persona_models)
    total = price_tokens(
        model=cheap_model,
        input_tokens=BASE_PROMPT_TOKENS,
        output_tokens=OUTPUT_TOKENS["decompose"],
        prices=prices,
    )
    for model in persona_models:
        total += price_tokens(
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
            total += price_tokens(
                model=model,
                input_tokens=prompt,
                output_tokens=OUTPUT_TOKENS["attacks"],
                prices=prices,
            )
        new = NEW_NODES_PER_PERSONA_ROUND * p
        total += price_tokens(
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
