"""The inquiry's node graph (the IDIS design), declared as data and walked by ``route``.

::

    advocate_opening → sanad_breaker_challenge → observer_critiques
      → advocate_rebuttal → evidence_call_retrieval? → arbiter_close
      → stop_condition_check → (sanad_breaker_challenge | muhasabah_validate_all)
      → finalize_outputs

``observer_critiques`` fans out (Contradiction Finder, Risk Officer, plus the
specialists the inquiry chose, e.g. the Methodologist: concurrent calls of one
stage) and fans in at its commit. ``evidence_call_retrieval``
runs only when some agent of the round requested evidence. A node whose
output a gate rejected is followed by ``<node>:resend`` (the same round),
which asks again only the rejected agents, naming the rule.

The graph is pure data (``NODES``, ``EDGES``): the live page draws it and a
test checks it; ``route`` derives the engine's next stage from it and from
what the saved state says happened (engine/formats.py ``next_stage``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "AGENTS",
    "EDGES",
    "LOOP_START",
    "MODEL_NODES",
    "NODES",
    "RESEND",
    "SPECIALISTS",
    "Edge",
    "Node",
    "RouteFacts",
    "base_node",
    "route",
]

RESEND = ":resend"


@dataclass(frozen=True, slots=True)
class Node:
    name: str
    kind: str  # "model" (agents answer) or "code"
    agents: tuple[str, ...] = ()
    # Specialists the inquiry may add to this node's fan-out (Inquiry.specialists).
    optional: tuple[str, ...] = ()

    def agents_for(self, specialists: tuple[str, ...]) -> tuple[str, ...]:
        """The node's agents, then the chosen specialists it takes, in declared order."""
        return self.agents + tuple(a for a in self.optional if a in specialists)


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    condition: str = ""  # "" always; else the name of a RouteFacts predicate


NODES: tuple[Node, ...] = (
    Node("advocate_opening", "model", ("advocate",)),
    Node("sanad_breaker_challenge", "model", ("sanad_breaker",)),
    Node(
        "observer_critiques",
        "model",
        ("contradiction_finder", "risk_officer"),
        optional=("methodologist",),
    ),
    Node("advocate_rebuttal", "model", ("advocate",)),
    Node("evidence_call_retrieval", "code"),
    Node("arbiter_close", "model", ("arbiter",)),
    Node("stop_condition_check", "code"),
    Node("muhasabah_validate_all", "code"),
    Node("finalize_outputs", "code"),
)

EDGES: tuple[Edge, ...] = (
    Edge("advocate_opening", "sanad_breaker_challenge"),
    Edge("sanad_breaker_challenge", "observer_critiques"),
    Edge("observer_critiques", "advocate_rebuttal"),
    Edge("advocate_rebuttal", "evidence_call_retrieval", "evidence_requested"),
    Edge("advocate_rebuttal", "arbiter_close", "no_evidence_requested"),
    Edge("evidence_call_retrieval", "arbiter_close"),
    Edge("arbiter_close", "stop_condition_check"),
    Edge("stop_condition_check", "sanad_breaker_challenge", "continue"),
    Edge("stop_condition_check", "muhasabah_validate_all", "stop"),
    Edge("muhasabah_validate_all", "finalize_outputs"),
)

LOOP_START = "sanad_breaker_challenge"
MODEL_NODES = frozenset(n.name for n in NODES if n.kind == "model")
AGENTS = ("advocate", "sanad_breaker", "contradiction_finder", "risk_officer", "arbiter")
# Optional observers an inquiry may choose, in the order they are asked and shown.
SPECIALISTS = tuple(a for n in NODES for a in n.optional)
_BY_NAME = {n.name: n for n in NODES}


@dataclass(frozen=True)
class RouteFacts:
    """What the route needs to know of the saved state, as callables of the round."""

    rejected: Callable[[str, int], bool]  # (node, round): some output of it awaits a resend
    evidence_requested: Callable[[int], bool]  # some accepted output of the round asked
    stopped: Callable[[int], bool | None]  # the stop check of the round: stop? None if not run


def base_node(stage: str) -> str:
    return stage.removesuffix(RESEND)


def _next(node: str, round: int, facts: RouteFacts) -> tuple[str, int] | None:
    for edge in EDGES:
        if edge.source != node:
            continue
        holds = {
            "": True,
            "evidence_requested": facts.evidence_requested(round),
            "no_evidence_requested": not facts.evidence_requested(round),
            "continue": facts.stopped(round) is False,
            "stop": facts.stopped(round) is True,
        }[edge.condition]
        if holds:
            target_round = round + 1 if edge.condition == "continue" else round
            return edge.target, target_round
    return None


def route(done: frozenset, facts: RouteFacts) -> tuple[str, int] | None:
    """The next (stage, round) to run, or None when finalize_outputs is done."""
    step: tuple[str, int] | None = ("advocate_opening", 1)
    while step is not None:
        node, round = step
        if step not in done:
            return step
        if node in MODEL_NODES and facts.rejected(node, round):
            resend = (node + RESEND, round)
            if resend not in done:
                return resend
        step = _next(node, round, facts)
    return None


def node(name: str) -> Node:
    return _BY_NAME[base_node(name)]
