"""Which part of an argument each ASPIC+ attack type may target, checked in code.

ASPIC+ (Modgil & Prakken 2014, "The ASPIC+ framework for structured
argumentation: a tutorial", Argument & Computation 5(1), section 3.2) names
three ways one argument attacks another, by the part of it they hit:

- a **rebut** attacks the *conclusion* (claim) of a defeasible inference;
- an **undermine** attacks an (ordinary) *premise*;
- an **undercut** attacks a *defeasible inference* itself: it grants the
  premises and denies that they support the conclusion.

So an attack's type and the component it targets must agree, and a model's
word is not enough to make them agree: a "rebut" aimed at a premise is an
undermine that mislabelled itself, and counting it as a rebut would add the
wrong edges to the framework (a rebut attacks both ways, see
``debates.graph``). :func:`attack_mismatch` says whether an attack fits, with a
stable reason code and a plain message.

Component kinds are ASPIC+'s own: ``claim`` (conclusion), ``premise``,
``inference``. Other vocabularies map onto them through :data:`COMPONENT_KINDS`:
the debates' ``assumption`` (what links premises to claim) is the inference;
Toulmin's grounds and backing are premises and the warrant is the inference,
so a stress test of a student's Toulmin argument can use the same rule. Every
premise is taken as ordinary (none is an axiom) and every inference as
defeasible (none is strict): nothing a debater or a student writes is beyond
question.

Pure: no Django, nothing else of the project.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "ATTACK_TARGETS",
    "COMPONENT_KINDS",
    "AttackMismatch",
    "ComponentKind",
    "MismatchCode",
    "attack_mismatch",
    "component_kind",
]


class ComponentKind(StrEnum):
    CLAIM = "claim"  # the conclusion
    PREMISE = "premise"  # an ordinary premise
    INFERENCE = "inference"  # a defeasible inference (its warrant / assumption)


class MismatchCode(StrEnum):
    """Stable reason codes: store them, branch on them."""

    UNKNOWN_TYPE = "unknown_type"
    UNKNOWN_COMPONENT = "unknown_component"
    WRONG_TYPE = "wrong_type"
    NO_SUCH_COMPONENT = "no_such_component"


ATTACK_TARGETS: Mapping[str, frozenset[ComponentKind]] = MappingProxyType(
    {
        "rebut": frozenset({ComponentKind.CLAIM}),
        "undermine": frozenset({ComponentKind.PREMISE}),
        "undercut": frozenset({ComponentKind.INFERENCE}),
    }
)
"""Attack type -> the component kinds it may target (ASPIC+)."""

COMPONENT_KINDS: Mapping[str, ComponentKind] = MappingProxyType(
    {
        # ASPIC+'s own names.
        "claim": ComponentKind.CLAIM,
        "conclusion": ComponentKind.CLAIM,
        "premise": ComponentKind.PREMISE,
        "inference": ComponentKind.INFERENCE,
        # The debates' names (debates.schemas.AttackDraft.target_component).
        "assumption": ComponentKind.INFERENCE,
        # Toulmin's names, for the stress test of a student's argument.
        "grounds": ComponentKind.PREMISE,
        "backing": ComponentKind.PREMISE,
        "warrant": ComponentKind.INFERENCE,
    }
)
"""A component's name in some vocabulary -> its ASPIC+ kind."""

_EXPECTED = {
    ComponentKind.CLAIM: "rebut",
    ComponentKind.PREMISE: "undermine",
    ComponentKind.INFERENCE: "undercut",
}


@dataclass(frozen=True, slots=True)
class AttackMismatch:
    """Why an attack does not fit its target; the message may be reworded, the code not."""

    code: MismatchCode
    message: str


def _with_article(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def component_kind(name: str) -> ComponentKind | None:
    """The ASPIC+ kind of a component name (any known vocabulary), or None."""
    return COMPONENT_KINDS.get(name)


def attack_mismatch(
    *, attack_type: str, component: str, index: int, available: int
) -> AttackMismatch | None:
    """None when the attack fits; otherwise the first thing wrong with it.

    ``component`` is a name from :data:`COMPONENT_KINDS`; ``index`` the
    position of the targeted component among those of its name, and
    ``available`` how many of them the target has (1 for the claim). The type
    is checked before the index: a rebut of "premise 7" is mistyped whether or
    not premise 7 exists.
    """
    allowed = ATTACK_TARGETS.get(attack_type)
    if allowed is None:
        return AttackMismatch(MismatchCode.UNKNOWN_TYPE, f"{attack_type!r} is not an attack type.")
    kind = component_kind(component)
    if kind is None:
        return AttackMismatch(
            MismatchCode.UNKNOWN_COMPONENT, f"{component!r} is not a part of an argument."
        )
    if kind not in allowed:
        expected = _with_article(_EXPECTED[kind])
        return AttackMismatch(
            MismatchCode.WRONG_TYPE,
            f"{_with_article(attack_type).capitalize()} cannot target "
            f"{_with_article(component)}: {_with_article(component)} is attacked by {expected}.",
        )
    if not 0 <= index < available:
        return AttackMismatch(
            MismatchCode.NO_SUCH_COMPONENT,
            f"The target has no {component} number {index}.",
        )
    return None
