"""The four phases of a trial: their tool names, what each reads and what it produces.

One table read by the prompts, the output checks, the chain and the MCP tools,
so the order of phases and the names of their inputs are spelled once.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from pydantic import BaseModel

from argumentation.toulmin import (
    Backing,
    Claim,
    Data,
    Phase1Output,
    Phase2Output,
    Phase3Output,
    Phase4Output,
    Qualifier,
    Rebuttal,
    Verdict,
    Warrant,
)

__all__ = ["COMPONENT_MODELS", "PHASES", "Phase", "get_phase"]

# Every Toulmin component a phase can read or write, by its JSON key.
COMPONENT_MODELS: dict[str, type[BaseModel]] = {
    "data": Data,
    "claim": Claim,
    "warrant": Warrant,
    "backing": Backing,
    "rebuttal": Rebuttal,
    "qualifier": Qualifier,
    "verdict": Verdict,
}


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase: its number, its MCP tool name, its title (shown to students), inputs and outputs."""

    number: int
    tool: str
    title: Promise  # translated when shown, in the page's language
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    output_model: type[BaseModel]


PHASES: tuple[Phase, ...] = (
    Phase(1, "initiate_toulmin_sequence", _("Data and claim"), (), ("data", "claim"), Phase1Output),
    Phase(
        2,
        "inject_logic_bridge",
        _("Warrant and backing"),
        ("data", "claim"),
        ("warrant", "backing"),
        Phase2Output,
    ),
    Phase(
        3,
        "stress_test_argument",
        _("Rebuttal and qualifier"),
        ("data", "claim", "warrant", "backing"),
        ("rebuttal", "qualifier"),
        Phase3Output,
    ),
    Phase(
        4,
        "render_verdict",
        _("Verdict"),
        ("data", "claim", "warrant", "backing", "rebuttal", "qualifier"),
        ("verdict",),
        Phase4Output,
    ),
)

_BY_KEY: dict[object, Phase] = {
    **{phase.number: phase for phase in PHASES},
    **{str(phase.number): phase for phase in PHASES},
    **{phase.tool: phase for phase in PHASES},
}


def get_phase(key: int | str) -> Phase | None:
    """The phase named by its number (1-4, as int or string) or its tool name."""
    if isinstance(key, str):
        key = key.strip()
    return _BY_KEY.get(key)
