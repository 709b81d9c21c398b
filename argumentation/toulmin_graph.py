"""A student's Toulmin argument, its attackers and its defences as a Dung framework.

The stress test asks one question of a student's finished argument: after the
objections raised and the answers given, does the claim still stand? This
module answers it by mapping Toulmin's (1958, *The Uses of Argument*) seven
elements into a Dung (1995) framework the way ASPIC+ (Modgil & Prakken 2014,
"The ASPIC+ framework for structured argumentation: a tutorial", Argument &
Computation 5(1)) builds arguments from premises and rules, then asking the
project's solver. Pure: no Django; the messages are plain English constants
the web layer translates.

The mapping (drawn in ``docs/stress-test.md``):

- **Student nodes.** ``claim`` is the argument concluding the claim from the
  grounds through the warrant (ASPIC+: a defeasible rule whose premises are
  the grounds; the warrant names that rule). ``grounds`` and ``warrant`` are
  its sub-arguments. A non-empty ``groundsBacking`` is a sub-argument of the
  grounds (it supports them), a non-empty ``warrantBacking`` one of the
  warrant. A non-empty ``rebuttal`` (the exceptions the student concedes) is
  a node too, attacked by nothing. The qualifier is not a node: it changes
  what the claim asserts (see concessions below), it argues for nothing.
  Support is not a Dung relation; :attr:`StudentGraph.supports` keeps it for
  drawing only.
- **Attacks.** Each attack is a node. Its type must fit the element it hits,
  checked by :func:`argumentation.attack_types.attack_mismatch` (a rebut hits
  the claim, an undermine a premise — grounds or a backing —, an undercut the
  inference — the warrant); a mistyped attack, one aimed at an empty backing,
  at the qualifier or rebuttal, or reusing an id, is refused with its reason
  and left out of the framework. An accepted attack attacks the node of its
  element **and every argument that has that element as a sub-argument**
  (in ASPIC+ attacking a sub-argument is attacking the argument), so:
  claim → {claim}; grounds → {grounds, claim}; warrant → {warrant, claim};
  groundsBacking → {groundsBacking, grounds, claim}; warrantBacking →
  {warrantBacking, warrant, claim}. A **rebut** is symmetric, as in ASPIC+
  without preferences and as in ``debates.graph``: the claim attacks the
  rebutter back. Undermines and undercuts attack one way (the student's
  premises and warrant are ordinary premises and a defeasible inference, and
  the attacker's own inference is not questioned by them).
- **Concessions.** An attack marked ``conceded`` raises an exception the
  student already listed in the rebuttal step. When the argument has both a
  rebuttal and a qualifier, the qualified claim no longer asserts the case the
  attack raises: the ``rebuttal`` node attacks that attack, which is then OUT
  in every extension (nothing attacks the rebuttal), and it is listed in
  :attr:`StudentGraph.answered_by_rebuttal`. Without a qualifier the
  concession does not help — the claim still asserts, unqualified, the very
  case the student admitted — and the attack counts in full.
- **Defences.** A student's answer is a node attacking the attack it answers
  (one way). A defence naming an unknown or refused attack, or reusing an id,
  is refused.

:func:`claim_status` then says ``GROUNDED_IN`` when the claim is in the
grounded extension, ``CREDULOUS`` when it is in some preferred extension but
not grounded, ``DEFEATED`` when it is in none; the deciding attacks are those
in the grounded extension or in a preferred extension without the claim.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from .attack_types import MismatchCode, attack_mismatch
from .extensions import preferred_extensions
from .framework import ArgumentationFramework
from .grounded import grounded_extension

__all__ = [
    "CLAIM_NODE",
    "ELEMENTS",
    "REQUIRED_ELEMENTS",
    "STATUS_MESSAGES",
    "Attack",
    "ClaimStatus",
    "Defence",
    "Refusal",
    "RefusalCode",
    "StatusResult",
    "StudentGraph",
    "attack_node",
    "build_graph",
    "claim_status",
    "defence_node",
    "student_node",
]

ELEMENTS = (
    "claim",
    "grounds",
    "warrant",
    "groundsBacking",
    "warrantBacking",
    "qualifier",
    "rebuttal",
)
"""The seven Toulmin elements, by the coach's names."""

REQUIRED_ELEMENTS = ("claim", "grounds", "warrant")

# Element -> its name for attack_types (Toulmin vocabulary there).
_COMPONENT = {
    "claim": "claim",
    "grounds": "grounds",
    "warrant": "warrant",
    "groundsBacking": "backing",
    "warrantBacking": "backing",
}

# Element -> the student nodes an attack on it attacks: the element's own node
# and every argument using it as a sub-argument, up to the claim.
_ATTACKED = {
    "claim": ("claim",),
    "grounds": ("grounds", "claim"),
    "warrant": ("warrant", "claim"),
    "groundsBacking": ("groundsBacking", "grounds", "claim"),
    "warrantBacking": ("warrantBacking", "warrant", "claim"),
}

_SUPPORTS = (
    ("grounds", "claim"),
    ("warrant", "claim"),
    ("groundsBacking", "grounds"),
    ("warrantBacking", "warrant"),
)


class RefusalCode(StrEnum):
    """Stable reason codes for what the framework leaves out."""

    UNKNOWN_TYPE = MismatchCode.UNKNOWN_TYPE.value
    UNKNOWN_COMPONENT = MismatchCode.UNKNOWN_COMPONENT.value
    WRONG_TYPE = MismatchCode.WRONG_TYPE.value
    NO_SUCH_COMPONENT = MismatchCode.NO_SUCH_COMPONENT.value
    DUPLICATE_ID = "duplicate_id"
    UNKNOWN_ATTACK = "unknown_attack"


class ClaimStatus(StrEnum):
    GROUNDED_IN = "grounded_in"
    CREDULOUS = "credulous"
    DEFEATED = "defeated"


STATUS_MESSAGES = {
    ClaimStatus.GROUNDED_IN: "Your claim stands against every objection raised",
    ClaimStatus.CREDULOUS: "Your claim can be defended, but so can an opposing view",
    ClaimStatus.DEFEATED: "Your claim is defeated as it stands",
}
"""Plain English, for the web layer to translate."""


@dataclass(frozen=True, slots=True)
class Attack:
    """An objection: its ``type`` (rebut/undermine/undercut) and the element it hits."""

    id: str
    type: str
    target: str
    conceded: bool = False


@dataclass(frozen=True, slots=True)
class Defence:
    """A student's answer to the attack ``answers`` (an attack id)."""

    id: str
    answers: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """An attack or defence left out of the framework, and why."""

    id: str
    code: RefusalCode
    message: str


def student_node(element: str) -> str:
    return f"student:{element}"


def attack_node(attack_id: str) -> str:
    return f"attack:{attack_id}"


def defence_node(defence_id: str) -> str:
    return f"defence:{defence_id}"


CLAIM_NODE = student_node("claim")


@dataclass(frozen=True, slots=True)
class StudentGraph:
    """The framework and what the mapping decided along the way."""

    framework: ArgumentationFramework
    student_nodes: tuple[str, ...]
    attacks: tuple[Attack, ...]  # accepted ones, in the given order
    defences: tuple[Defence, ...]  # accepted ones, in the given order
    refused: tuple[Refusal, ...]
    answered_by_rebuttal: frozenset[str]  # attack ids
    supports: tuple[tuple[str, str], ...]  # (supporter, supported) student nodes

    @property
    def claim_node(self) -> str:
        return CLAIM_NODE


@dataclass(frozen=True, slots=True)
class StatusResult:
    status: ClaimStatus
    message: str
    deciding: tuple[str, ...]  # attack ids, in the order the attacks were given


def _present(elements: Mapping[str, str], name: str) -> bool:
    return bool((elements.get(name) or "").strip())


def _attack_refusal(attack: Attack, elements: Mapping[str, str]) -> Refusal | None:
    component = _COMPONENT.get(attack.target, attack.target)
    mismatch = attack_mismatch(
        attack_type=attack.type,
        component=component,
        index=0,
        available=1 if _present(elements, attack.target) else 0,
    )
    if mismatch is None:
        return None
    message = mismatch.message
    if mismatch.code == MismatchCode.NO_SUCH_COMPONENT:
        message = f"The argument has no {attack.target} to attack."
    elif mismatch.code == MismatchCode.UNKNOWN_COMPONENT and attack.target in ELEMENTS:
        message = f"The {attack.target} cannot be attacked: it argues for nothing."
    return Refusal(attack.id, RefusalCode(mismatch.code.value), message)


def build_graph(
    *,
    elements: Mapping[str, str],
    attacks: Iterable[Attack],
    defences: Iterable[Defence] = (),
) -> StudentGraph:
    """The framework of ``elements`` under ``attacks`` and ``defences`` (module doc).

    ``ValueError`` if the claim, grounds or warrant is empty: there is no
    argument to stress-test without them.
    """
    missing = [name for name in REQUIRED_ELEMENTS if not _present(elements, name)]
    if missing:
        raise ValueError(f"the argument has no {', '.join(missing)}")
    students = [name for name in ELEMENTS if name != "qualifier" and _present(elements, name)]
    nodes: list[Hashable] = [student_node(name) for name in students]
    edges: list[tuple[Hashable, Hashable]] = []
    refused: list[Refusal] = []
    accepted: list[Attack] = []
    answered: set[str] = set()
    concessions_hold = _present(elements, "qualifier") and _present(elements, "rebuttal")
    seen: set[str] = set()

    for attack in attacks:
        if attack.id in seen:
            refused.append(Refusal(attack.id, RefusalCode.DUPLICATE_ID, "This id is used twice."))
            continue
        refusal = _attack_refusal(attack, elements)
        if refusal is not None:
            refused.append(refusal)
            continue
        seen.add(attack.id)
        accepted.append(attack)
        node = attack_node(attack.id)
        nodes.append(node)
        edges.extend((node, student_node(name)) for name in _ATTACKED[attack.target])
        if attack.type == "rebut":
            edges.append((CLAIM_NODE, node))
        if attack.conceded and concessions_hold:
            answered.add(attack.id)
            edges.append((student_node("rebuttal"), node))

    accepted_defences: list[Defence] = []
    for defence in defences:
        if defence.id in seen:
            refused.append(Refusal(defence.id, RefusalCode.DUPLICATE_ID, "This id is used twice."))
            continue
        if defence.answers not in {attack.id for attack in accepted}:
            refused.append(
                Refusal(
                    defence.id,
                    RefusalCode.UNKNOWN_ATTACK,
                    f"There is no objection {defence.answers!r} to answer.",
                )
            )
            continue
        seen.add(defence.id)
        accepted_defences.append(defence)
        node = defence_node(defence.id)
        nodes.append(node)
        edges.append((node, attack_node(defence.answers)))

    supports = tuple(
        (student_node(a), student_node(b)) for a, b in _SUPPORTS if a in students and b in students
    )
    return StudentGraph(
        framework=ArgumentationFramework(nodes, edges),
        student_nodes=tuple(student_node(name) for name in students),
        attacks=tuple(accepted),
        defences=tuple(accepted_defences),
        refused=tuple(refused),
        answered_by_rebuttal=frozenset(answered),
        supports=supports,
    )


def claim_status(graph: StudentGraph) -> StatusResult:
    """Where the claim stands, in words, and the attacks that decide it.

    Only the grounded extension (the sceptical core everyone must grant) lets
    the claim "stand"; a claim in every preferred extension but not grounded
    (possible only once attacks may be attacked by more than one side) is
    reported as CREDULOUS, the cautious reading.
    """
    af = graph.framework
    grounded = grounded_extension(af)
    deciding_nodes: set[Hashable] = set(grounded)
    if CLAIM_NODE in grounded:
        status = ClaimStatus.GROUNDED_IN
    else:
        preferred = list(preferred_extensions(af))
        status = (
            ClaimStatus.CREDULOUS
            if any(CLAIM_NODE in extension for extension in preferred)
            else ClaimStatus.DEFEATED
        )
        for extension in preferred:
            if CLAIM_NODE not in extension:
                deciding_nodes |= extension
    deciding = tuple(
        attack.id for attack in graph.attacks if attack_node(attack.id) in deciding_nodes
    )
    return StatusResult(status, STATUS_MESSAGES[status], deciding)
