"""A debate's rows as a Dung framework, and what the semantics say about it.

Which nodes and edges count (decisions, also in the README of the app):

- Nodes: every opening argument (round 0), and the counter-argument of every
  attack whose status is ``valid``. The counter-argument of an invalid,
  duplicate or unvalidated attack stays in the database for the record but
  is not in the framework: an unattacked stray node would otherwise be
  accepted for free.
- Edges: only ``valid`` attacks count. A valid *rebut* adds both directions:
  the counter-argument and its target have contradictory conclusions, so each
  attacks the other (symmetric rebutting, as in ASPIC+). *Undermine* and
  *undercut* attack one way, from the counter-argument to its target.
- ``up_to_round=r`` gives the framework as it stood after round r, so label
  histories (the stop check's STABLE_DISSENT) are recomputed from the same
  rows rather than stored twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from argumentation import ArgumentationFramework, Label, grounded_labelling, preferred_extensions
from argumentation.cruxes import ArgumentInfo, order_camps
from debates.models import AttackStatus, AttackType
from debates.state import ArgumentView, AttackView, DebateState

__all__ = [
    "GraphSnapshot",
    "argument_infos",
    "build_framework",
    "counted_arguments",
    "counted_attacks",
    "grounded_labels",
    "label_counts",
    "snapshot",
]


def counted_attacks(state: DebateState, *, up_to_round: int | None = None) -> list[AttackView]:
    """Valid attacks (with both ends known), optionally only those up to a round."""
    return [
        attack
        for attack in state.attacks
        if attack.status == AttackStatus.VALID
        and attack.from_key is not None
        and attack.to_key is not None
        and (up_to_round is None or attack.round <= up_to_round)
    ]


def counted_arguments(state: DebateState, *, up_to_round: int | None = None) -> list[ArgumentView]:
    """Opening arguments and the counter-arguments of counted attacks."""
    valid_origins = {attack.id for attack in counted_attacks(state, up_to_round=up_to_round)}
    return [
        argument
        for argument in state.arguments
        if (up_to_round is None or argument.round <= up_to_round)
        and (argument.is_initial or argument.origin_attack_id in valid_origins)
    ]


def _edges(attacks: Iterable[AttackView]) -> list[tuple[str, str]]:
    edges: list[tuple[str, str]] = []
    for attack in attacks:
        assert attack.from_key is not None and attack.to_key is not None
        edges.append((attack.from_key, attack.to_key))
        if attack.type == AttackType.REBUT:
            edges.append((attack.to_key, attack.from_key))
    return edges


def build_framework(
    state: DebateState, *, up_to_round: int | None = None
) -> ArgumentationFramework:
    """The framework of counted arguments and attacks (see the module docstring)."""
    arguments = [a.key for a in counted_arguments(state, up_to_round=up_to_round)]
    return ArgumentationFramework(
        arguments, _edges(counted_attacks(state, up_to_round=up_to_round))
    )


def argument_infos(state: DebateState) -> dict[str, ArgumentInfo]:
    """What argumentation.cruxes needs about each argument, keyed by argument id."""
    return {
        a.key: ArgumentInfo(
            id=a.key,
            speaker=a.speaker,
            claim=a.claim,
            assumptions=a.assumptions,
            evidence=a.evidence,
        )
        for a in state.arguments
    }


def label_counts(labels: dict[str, str]) -> dict[str, int]:
    counts = {label.value: 0 for label in Label}
    for label in labels.values():
        counts[label] += 1
    return counts


@dataclass(frozen=True, slots=True)
class GraphSnapshot:
    """The semantics of the framework after one round."""

    framework: ArgumentationFramework
    labels: dict[str, str]
    extensions: tuple[frozenset[str], ...]

    @property
    def counts(self) -> dict[str, int]:
        return label_counts(self.labels)

    @property
    def grounded(self) -> tuple[str, ...]:
        return tuple(a for a, label in self.labels.items() if label == Label.IN)

    @property
    def camp_count(self) -> int:
        """How many camps (preferred extensions): what the stop check and events need."""
        return len(self.extensions)

    @property
    def camps(self) -> tuple[tuple[str, ...], ...]:
        """The camps in display order; computed on demand, since ordering them
        (natural sort of every member of every extension) costs more than the
        semantics itself and the pipeline only ever needs their number."""
        return tuple(order_camps(self.extensions))


@lru_cache(maxsize=64)
def grounded_labels(state: DebateState, *, up_to_round: int | None = None) -> dict[str, str]:
    """The grounded labels alone (cached): what prompts and label histories read.

    Cheaper than :func:`snapshot`, which also enumerates the preferred
    extensions. Callers must not mutate the returned dict.
    """
    af = build_framework(state, up_to_round=up_to_round)
    return {str(a): Label(label).value for a, label in grounded_labelling(af).items()}


@lru_cache(maxsize=32)
def snapshot(state: DebateState, *, up_to_round: int | None = None) -> GraphSnapshot:
    """The semantics of the state's framework (cached: states are immutable values).

    Callers must not mutate the returned labels.
    """
    af = build_framework(state, up_to_round=up_to_round)
    labels = grounded_labels(state, up_to_round=up_to_round)
    return GraphSnapshot(framework=af, labels=labels, extensions=tuple(preferred_extensions(af)))
