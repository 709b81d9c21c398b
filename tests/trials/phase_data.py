"""Valid phase outputs for tests, with the knobs the rules turn on.

Each builder returns a fresh dict, valid against its `PhaseNOutput`, so a
test changes only what it is about.
"""

from __future__ import annotations

from typing import Any

CLAIM = "Cities should replace most car lanes with bus and bike lanes."


def phase1(*, claim: str = CLAIM) -> dict[str, Any]:
    return {
        "data": {
            "facts": ["Bus lanes in Paris cut commute times by 12%."],
            "citations": [{"source": "the query", "reference": "grounds"}],
            "evidence_type": "statistical",
        },
        "claim": {"statement": claim, "scope": "general"},
    }


def phase2(*, warrant_strength: str = "strong", backing_strength: str = "strong") -> dict[str, Any]:
    return {
        "warrant": {
            "principle": "What shortens commutes for most people is good transport policy.",
            "logic_type": "inductive",
            "strength": warrant_strength,
        },
        "backing": {
            "authority": "Urban transport research on modal shift.",
            "citations": [{"source": "the query", "reference": "warrant backing"}],
            "strength": backing_strength,
        },
    }


def phase3(
    *, rebuttal_strength: str = "weak", degree: str = "probably", confidence_pct: int = 60
) -> dict[str, Any]:
    return {
        "rebuttal": {
            "exceptions": ["Cities without frequent bus service."],
            "counterexamples": [],
            "strength": rebuttal_strength,
        },
        "qualifier": {
            "degree": degree,
            "confidence_pct": confidence_pct,
            "rationale": "The evidence is from one large city only.",
        },
    }


def phase4(
    *,
    status: str = "sustained",
    reasoning: str = (
        "The data supports the claim through a strong warrant, and the rebuttal "
        "only limits where it applies."
    ),
) -> dict[str, Any]:
    return {
        "verdict": {
            "status": status,
            "reasoning": reasoning,
            "final_statement": "Your claim holds for cities with good bus service.",
        }
    }
