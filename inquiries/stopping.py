"""When an inquiry stops: one pure function over a small state, in a fixed priority.

The IDIS design checks the stop conditions after every round's arbiter close, in
this order; the first that holds is the reason given:

=====  ==================  ===========================================================
order  reason              holds when
=====  ==================  ===========================================================
1      CRITICAL_DEFECT     a claim the advocate's thesis cites is graded D (or is not
                           in the registry at all: an ungraded claim cannot carry a
                           thesis, so it counts as D)
2      MAX_ROUNDS          rounds_completed ≥ max_rounds (5 by default)
3      CONSENSUS           at least two agents, and max − min of their confidences
                           ≤ 0.10 (boundary included; a 1e-9 tolerance absorbs float
                           noise such as 0.4 − 0.3 = 0.10000000000000003)
4      STABLE_DISSENT      the last `stable_rounds` + 1 position snapshots (2 rounds
                           with no change: three snapshots) are identical and hold at
                           least two distinct positions
5      EVIDENCE_EXHAUSTED  the round retrieved or registered no new evidence
=====  ==================  ===========================================================

None of them: the graph loops to another round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from argumentation.sanad import Grade

__all__ = [
    "CONSENSUS_SPREAD",
    "MAX_ROUNDS",
    "STABLE_ROUNDS",
    "StopReason",
    "StopState",
    "stop_reason",
]

MAX_ROUNDS = 5
CONSENSUS_SPREAD = 0.10
STABLE_ROUNDS = 2
_EPSILON = 1e-9


class StopReason(StrEnum):
    CRITICAL_DEFECT = "CRITICAL_DEFECT"
    MAX_ROUNDS = "MAX_ROUNDS"
    CONSENSUS = "CONSENSUS"
    STABLE_DISSENT = "STABLE_DISSENT"
    EVIDENCE_EXHAUSTED = "EVIDENCE_EXHAUSTED"


@dataclass(frozen=True)
class StopState:
    rounds_completed: int
    thesis_claim_ids: tuple[str, ...] = ()
    claim_grades: Mapping[str, Grade] = field(default_factory=dict)
    confidences: Mapping[str, float] = field(default_factory=dict)
    """Each agent's latest confidence, by agent id."""
    position_history: Sequence[Mapping[str, str]] = ()
    """One snapshot per round, oldest first: agent id → its position (a label or hash)."""
    new_evidence_in_round: int = 0
    """Spans retrieved plus claims registered during the round just closed."""
    max_rounds: int = MAX_ROUNDS
    consensus_spread: float = CONSENSUS_SPREAD
    stable_rounds: int = STABLE_ROUNDS


def _critical(state: StopState) -> bool:
    return any(state.claim_grades.get(i, Grade.D) is Grade.D for i in state.thesis_claim_ids)


def _consensus(state: StopState) -> bool:
    values = list(state.confidences.values())
    return len(values) >= 2 and max(values) - min(values) <= state.consensus_spread + _EPSILON


def _stable_dissent(state: StopState) -> bool:
    needed = state.stable_rounds + 1
    if len(state.position_history) < needed:
        return False
    recent = [dict(s) for s in state.position_history[-needed:]]
    return all(s == recent[-1] for s in recent) and len(set(recent[-1].values())) >= 2


def stop_reason(state: StopState) -> StopReason | None:
    """The highest-priority stop condition that holds, or None to run another round."""
    if _critical(state):
        return StopReason.CRITICAL_DEFECT
    if state.rounds_completed >= state.max_rounds:
        return StopReason.MAX_ROUNDS
    if _consensus(state):
        return StopReason.CONSENSUS
    if _stable_dissent(state):
        return StopReason.STABLE_DISSENT
    if state.new_evidence_in_round <= 0:
        return StopReason.EVIDENCE_EXHAUSTED
    return None
