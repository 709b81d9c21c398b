"""A stress test's saved rows as immutable values: the debate's state plus its own."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from debates.state import DebateState
from debates.state import load_state as load_debate_state
from debates.state import state_hash as debate_state_hash
from engine.models import Debate
from stresstests.models import Concession, Defence, StressTest

__all__ = ["DefenceView", "StressState", "load_state", "state_hash"]


@dataclass(frozen=True, slots=True)
class DefenceView:
    seq: int
    attack_key: str  # the attacker's counter-argument node
    text: str
    status: str
    reason: str
    node_key: str | None


@dataclass(frozen=True, slots=True)
class StressState:
    debate: DebateState
    elements: tuple[tuple[str, str], ...]
    round_limit: int
    conceded: frozenset[str]  # attack keys answered by the rebuttal
    concessions_checked: frozenset[str]  # attack keys the check looked at
    defences: tuple[DefenceView, ...]

    @property
    def element_map(self) -> dict[str, str]:
        return dict(self.elements)

    def defence(self, seq: int) -> DefenceView | None:
        return next((d for d in self.defences if d.seq == seq), None)


def load_state(debate: Debate) -> StressState:
    stress = StressTest.objects.get(debate=debate)
    concessions = Concession.objects.filter(attack__debate=debate).values_list(
        "attack__from_argument__key", "conceded"
    )
    defences = tuple(
        DefenceView(
            seq=d["seq"],
            attack_key=d["attack__from_argument__key"] or "",
            text=d["text"],
            status=d["status"],
            reason=d["reason"],
            node_key=d["node__key"],
        )
        for d in Defence.objects.filter(stress_test=stress)
        .order_by("seq")
        .values("seq", "attack__from_argument__key", "text", "status", "reason", "node__key")
    )
    return StressState(
        debate=load_debate_state(debate),
        elements=tuple(sorted((k, str(v)) for k, v in (stress.elements or {}).items())),
        round_limit=stress.round_limit,
        conceded=frozenset(key for key, conceded in concessions if conceded),
        concessions_checked=frozenset(key for key, _ in concessions),
        defences=defences,
    )


@lru_cache(maxsize=16)
def state_hash(state: StressState) -> str:
    """sha256 of the debate's state hash and the stress test's own rows."""
    canonical = json.dumps(
        {
            "debate": debate_state_hash(state.debate),
            "elements": state.elements,
            "round_limit": state.round_limit,
            "conceded": sorted(state.conceded),
            "checked": sorted(state.concessions_checked),
            "defences": [
                [d.seq, d.attack_key, d.text, d.status, d.reason, d.node_key]
                for d in state.defences
            ],
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
