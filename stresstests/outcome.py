"""Where the student's claim stands, computed from the saved state (never asked of a model).

The attacks that count (validated, not duplicates, aimed at the student's
argument), the concessions and the accepted defences go into
``argumentation.toulmin_graph`` (the mapping of docs/stress-test.md); its
``claim_status`` gives the status and the deciding attacks.
"""

from __future__ import annotations

from dataclasses import dataclass

from argumentation.grounded import grounded_labelling
from argumentation.toulmin_graph import (
    Attack,
    Defence,
    StatusResult,
    StudentGraph,
    attack_node,
    build_graph,
    claim_status,
    defence_node,
    student_node,
)
from debates.models import AttackStatus, DebateStatus
from debates.state import ArgumentView, AttackView
from stresstests.mapping import element_of
from stresstests.models import DefenceStatus
from stresstests.state import StressState

__all__ = ["Outcome", "compute", "counted_objections", "student_argument"]

ATTACK_ROUND = 1


@dataclass(frozen=True, slots=True)
class Outcome:
    graph: StudentGraph
    status: StatusResult
    labels: dict[str, str]  # framework node -> IN / OUT / UNDEC
    objections: tuple[tuple[AttackView, str], ...]  # (attack, element it hits)

    def as_payload(self) -> dict:
        return {
            "status": self.status.status.value,
            "deciding": list(self.status.deciding),
            "answered_by_rebuttal": sorted(self.graph.answered_by_rebuttal),
            "labels": {str(k): v for k, v in sorted(self.labels.items())},
            "attacks": [
                {"key": a.from_key, "element": element, "type": a.type, "by": a.speaker}
                for a, element in self.objections
            ],
            "defences": [d.id for d in self.graph.defences],
        }


def student_argument(state: StressState) -> ArgumentView | None:
    """The student's node: the only argument of round 0."""
    return next((a for a in state.debate.arguments if a.round == 0), None)


def counted_objections(state: StressState) -> list[tuple[AttackView, str]]:
    """The personas' valid attacks on the student's argument, with the element each hits."""
    student = student_argument(state)
    if student is None:
        return []
    elements = state.element_map
    counted = []
    for attack in state.debate.attacks:
        if attack.status != AttackStatus.VALID or attack.to_key != student.key:
            continue
        element = element_of(elements, component=attack.component, index=attack.index)
        if element is not None and attack.from_key:
            counted.append((attack, element))
    return counted


def compute(state: StressState) -> Outcome:
    objections = counted_objections(state)
    attacks = [
        Attack(id=a.from_key, type=a.type, target=element, conceded=a.from_key in state.conceded)
        for a, element in objections
    ]
    defences = [
        Defence(id=f"D{d.seq}", answers=d.attack_key)
        for d in state.defences
        if d.status == DefenceStatus.ACCEPTED
    ]
    graph = build_graph(elements=state.element_map, attacks=attacks, defences=defences)
    labels = {str(node): label.value for node, label in grounded_labelling(graph.framework).items()}
    return Outcome(
        graph=graph, status=claim_status(graph), labels=labels, objections=tuple(objections)
    )


def node_ids(state: StressState) -> dict[str, str]:
    """Framework node -> the short id pages show (the element's name, A3, D1)."""
    ids = {student_node(name): name for name, _ in state.elements}
    for attack, _ in counted_objections(state):
        ids[attack_node(attack.from_key)] = attack.from_key
    for d in state.defences:
        ids[defence_node(f"D{d.seq}")] = f"D{d.seq}"
    return ids


def is_running(status: str) -> bool:
    return status in (DebateStatus.QUEUED, DebateStatus.RUNNING)
