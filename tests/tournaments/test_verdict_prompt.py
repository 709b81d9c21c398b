"""The verdict's prompt carries what the sides argued, not what their calls cost or took:
an identical tournament asks the identical verdict, so the cached one is reused."""

from __future__ import annotations

from tournaments.prompts import verdict_prompt


def _prompt(tokens: int, seconds: float) -> str:
    reply = {
        "recommendation": "PostgreSQL",
        "input_tokens": tokens,
        "output_tokens": tokens // 2,
        "response_seconds": seconds,
    }
    prompt = verdict_prompt(
        question="Which database?",
        model_a="a",
        model_b="b",
        transcript=[("a", "initial", reply), ("b", "initial", {**reply, "recommendation": "x"})],
    )
    return prompt.messages[0]["content"]


def test_it_asks_the_same_verdict_whatever_the_calls_cost_or_took() -> None:
    first, second = _prompt(1200, 3.25), _prompt(1350, 4.5)
    assert first == second
    assert "PostgreSQL" in first
    assert not any(word in first for word in ("input_tokens", "output_tokens", "response_seconds"))
