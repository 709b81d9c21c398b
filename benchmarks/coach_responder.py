"""What the fake Anthropic server answers in bench_coach: a plausible coach reply.

Two to three sentences and a question, the length a real coach turn has, so the
server streams a realistic number of deltas (the fake sends 12 characters per
SSE event). No proposal: the benchmark measures turns, not the accept flow, and
a proposal the guards refuse would only add noise.
"""

from __future__ import annotations

from typing import Any

from tests.fakes.anthropic_wire import Reply

__all__ = ["respond"]

REPLY = {
    "assistantText": (
        "That is a clear start: you say cities should limit cars in their centres. "
        "Before we write the claim down, think about who it is for and how strong "
        "you want it to be. Which cities do you have in mind?"
    ),
    "step": "claim",
    "confidence": 0.6,
    "nextQuestion": "Which cities do you have in mind?",
}


def respond(body: dict[str, Any]) -> Reply:
    return Reply.json(REPLY)
