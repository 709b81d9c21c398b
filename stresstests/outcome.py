"""Where the student's claim stands, computed from the saved state (never asked of a model).

The attacks that count (validated, not duplicates, aimed at the student's
argument), the concessions and the accepted defences go into
``argumentation.toulmin_graph`` (the mapping of docs/stress-test.md); its
``claim_status`` gives the status and the deciding attacks.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from argumentation.framework import ArgumentationFramework
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
from debates.models import AttackStatus
from debates.state import ArgumentView, AttackView
from engine.models import DebateStatus
from stresstests.mapping import element_of
from stresstests.models import DefenceStatus
from stresstests.state import StressState

__all__ = [
    "Outcome",
    "compute",
    "counted_objections",
    "counted_replies",
    "answerable",
    "depth",
    "reply_node",
    "student_argument",
]

ATTACK_ROUND = 1


@dataclass(frozen=True, slots=True)
class Outcome:
    graph: StudentGraph
    status: StatusResult
    labels: dict[str, str]  # framework node -> IN / OUT / UNDEC
    objections: tuple[tuple[AttackView, str], ...]  # (attack, element it hits)
    replies: tuple[tuple[AttackView, int], ...] = ()  # (a persona's answer back, defence seq)

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
            "replies": [{"key": a.from_key, "answers": f"D{seq}"} for a, seq in self.replies],
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


def reply_node(key: str) -> str:
    return f"reply:{key}"


def counted_replies(state: StressState) -> list[tuple[AttackView, int]]:
    """The personas' validated answers back, each with the seq of the defence it attacks."""
    by_node = {d.node_key: d.seq for d in state.defences if d.node_key}
    students = {a.speaker_id for a in state.debate.arguments if a.round == 0}
    return [
        (attack, by_node[attack.to_key])
        for attack in state.debate.attacks
        if attack.status == AttackStatus.VALID
        and attack.to_key in by_node
        and attack.speaker_id not in students
        and attack.from_key
    ]


def compute(state: StressState) -> Outcome:
    """The claim's status: toulmin_graph's framework, plus the answers back and their answers.

    A persona's answer back attacks the student's defence node; the student's
    answer to it attacks the answer back (both one way, like a defence).
    """
    objections = counted_objections(state)
    attacks = [
        Attack(id=a.from_key, type=a.type, target=element, conceded=a.from_key in state.conceded)
        for a, element in objections
    ]
    objection_keys = {a.from_key for a, _ in objections}
    accepted = [d for d in state.defences if d.status == DefenceStatus.ACCEPTED]
    defences = [
        Defence(id=f"D{d.seq}", answers=d.attack_key)
        for d in accepted
        if d.attack_key in objection_keys
    ]
    graph = build_graph(elements=state.element_map, attacks=attacks, defences=defences)
    replies = counted_replies(state)
    if replies:
        # In the order things happened: an answer back follows the defence it
        # attacks, a defence of an answer back follows that answer.
        by_defence = {seq: reply for reply, seq in replies}
        nodes = list(graph.framework.arguments)
        edges = set(graph.framework.attacks)
        present = {str(node) for node in nodes}
        reply_keys: set[str] = set()
        for d in accepted:
            node = defence_node(f"D{d.seq}")
            if d.attack_key in reply_keys:
                nodes.append(node)
                present.add(node)
                edges.add((node, reply_node(d.attack_key)))
            reply = by_defence.get(d.seq)
            if reply is not None and node in present:
                nodes.append(reply_node(reply.from_key))
                edges.add((reply_node(reply.from_key), node))
                reply_keys.add(reply.from_key)
        graph = replace(graph, framework=ArgumentationFramework(nodes, edges))
        replies = [(r, seq) for r, seq in replies if r.from_key in reply_keys]
    labels = {str(node): label.value for node, label in grounded_labelling(graph.framework).items()}
    return Outcome(
        graph=graph,
        status=claim_status(graph),
        labels=labels,
        objections=tuple(objections),
        replies=tuple(replies),
    )


def depth(state: StressState, seq: int) -> int:
    """How deep the student's answer ``seq`` is in its thread: 1 answers an objection."""
    defence = state.defence(seq)
    if defence is None:
        return 0
    attacked = next((a for a in state.debate.attacks if a.from_key == defence.attack_key), None)
    parent = next((d for d in state.defences if attacked and d.node_key == attacked.to_key), None)
    if parent is None or parent.seq >= seq:
        return 1
    return depth(state, parent.seq) + 1


def answerable(state: StressState) -> dict[str, AttackView]:
    """What the student may answer: the objections and the answers back, by key."""
    found = {a.from_key: a for a, _ in counted_objections(state)}
    found.update({a.from_key: a for a, _ in counted_replies(state)})
    return found


def node_ids(state: StressState) -> dict[str, str]:
    """Framework node -> the short id pages show (the element's name, A3, D1)."""
    ids = {student_node(name): name for name, _ in state.elements}
    for attack, _ in counted_objections(state):
        ids[attack_node(attack.from_key)] = attack.from_key
    for d in state.defences:
        ids[defence_node(f"D{d.seq}")] = f"D{d.seq}"
    for reply, _seq in counted_replies(state):
        ids[reply_node(reply.from_key)] = reply.from_key
    return ids


def is_running(status: str) -> bool:
    return status in (DebateStatus.QUEUED, DebateStatus.RUNNING)
