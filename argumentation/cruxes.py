"""What a debate settled and what still splits it, read off the argument graph.

Pure code, no model call: the outcome of a debate is computed, not asked for.

- **Common ground** is the grounded extension: what every reasonable reader
  must accept, whatever side they take (Dung 1995).
- **Camps** are the preferred extensions: maximal coherent positions that
  defend themselves. They are ordered largest first, ties broken by their
  naturally sorted members, so their numbering is stable.
- **Disputed arguments** are those some camp accepts and another does not:
  credulously but not skeptically accepted under preferred semantics (in the
  union of the camps, not in their intersection). Every camp counts, not only
  the two largest: with three camps or more, a dispute between the smaller
  ones is still a dispute. With a single camp nothing is disputed.
- **Crux assumptions** are the assumptions of the disputed arguments, ranked
  by how many disputed arguments depend on them, then by the attack degree of
  those arguments (attacks made plus attacks received: how contested they
  are), then alphabetically; the top three, each with a settling question.
  Assumptions are compared case- and space-insensitively.

``summarize`` maps an outcome to the JSON stored as a debate's output, with
the keys the pages read: ``commonGround``, ``camps``, ``disputed``,
``cruxes``, ``faultLines`` (between the largest camp and each other camp:
what each side holds that the other does not),
``evidenceLedger`` (per persona), ``resolutionPaths`` (the settling
questions), ``flipConditions`` (which defeated arguments would come back if
their accepted attackers fell) and ``labels``.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .extensions import preferred_extensions
from .framework import ArgumentationFramework
from .grounded import grounded_labelling
from .labels import Label

__all__ = [
    "ArgumentInfo",
    "Crux",
    "DebateOutcome",
    "attack_degree",
    "disputed_arguments",
    "extract_outcome",
    "natural_key",
    "normalise_assumption",
    "order_camps",
    "rank_cruxes",
    "settling_question",
    "summarize",
]

TOP_CRUXES = 3
# Fault lines drawn from the largest camp to at most this many others.
MAX_FAULT_LINES = 5


@dataclass(frozen=True, slots=True)
class ArgumentInfo:
    """What crux extraction needs to know about one argument besides the graph."""

    id: Hashable
    speaker: str
    claim: str
    assumptions: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Crux:
    assumption: str
    arguments: tuple[Hashable, ...]
    attack_degree: int
    settling_question: str

    @property
    def dependents(self) -> int:
        return len(self.arguments)


@dataclass(frozen=True, slots=True)
class DebateOutcome:
    common_ground: tuple[Hashable, ...]
    camps: tuple[tuple[Hashable, ...], ...]
    disputed: tuple[Hashable, ...]
    cruxes: tuple[Crux, ...]
    labels: Mapping[Hashable, Label] = field(default_factory=dict)


@lru_cache(maxsize=4096, typed=True)  # typed: 1 and True are equal keys, not equal names
def natural_key(value: Hashable) -> tuple[Any, ...]:
    """Sort "A2" before "A10": runs of ASCII digits compare as numbers.

    Compared by length, then text, never through ``int``: a name may hold
    "²" (``isdigit`` but not ``int``) or a run too long for ``int`` to read.
    Cached: a debate's few dozen argument keys are sorted again and again
    (each camp, then the camps by their members).
    """
    parts = re.split(r"([0-9]+)", str(value))
    return tuple(
        (0, len(digits), digits) if part.isascii() and part.isdigit() else (1, part)
        for part in parts
        for digits in [part.lstrip("0")]
    )


def _sorted(members: Iterable[Hashable]) -> tuple[Hashable, ...]:
    return tuple(sorted(members, key=natural_key))


def normalise_assumption(text: str) -> str:
    """The identity of an assumption: case, spacing and a final full stop don't count."""
    return re.sub(r"\s+", " ", text).strip().rstrip(".").casefold()


def settling_question(assumption: str) -> str:
    """A question whose answer would settle the crux, phrased from the assumption itself."""
    body = re.sub(r"\s+", " ", assumption).strip().rstrip(".")
    return f'What evidence would show whether it is true that "{body}"?'


def order_camps(extensions: Iterable[frozenset[Hashable]]) -> list[tuple[Hashable, ...]]:
    """Camps largest first; equal sizes ordered by their naturally sorted members."""
    camps = [_sorted(extension) for extension in extensions]
    return sorted(camps, key=lambda camp: (-len(camp), [natural_key(a) for a in camp]))


def disputed_arguments(*, camps: Sequence[Iterable[Hashable]]) -> tuple[Hashable, ...]:
    """Arguments in some camp but not in every camp: credulous, not skeptical."""
    members = [set(camp) for camp in camps]
    if len(members) < 2:
        return ()
    return _sorted(set().union(*members) - set.intersection(*members))


def attack_degree(*, af: ArgumentationFramework, argument: Hashable) -> int:
    """Attacks received plus attacks made by ``argument`` (a self-attack counts twice)."""
    index = af.index(argument)
    return len(af.graph.attackers[index]) + len(af.graph.attacked[index])


def rank_cruxes(
    *,
    af: ArgumentationFramework,
    disputed: Iterable[Hashable],
    arguments: Mapping[Hashable, ArgumentInfo],
    top: int = TOP_CRUXES,
) -> list[Crux]:
    """The ``top`` assumptions the disputed arguments rest on, most load-bearing first."""
    texts: dict[str, str] = {}
    dependents: dict[str, list[Hashable]] = {}
    for argument in _sorted(disputed):
        info = arguments.get(argument)
        if info is None:
            continue
        seen: set[str] = set()
        for assumption in info.assumptions:
            key = normalise_assumption(assumption)
            if not key or key in seen:
                continue
            seen.add(key)
            texts.setdefault(key, re.sub(r"\s+", " ", assumption).strip())
            dependents.setdefault(key, []).append(argument)
    degree = {
        key: sum(attack_degree(af=af, argument=a) for a in members)
        for key, members in dependents.items()
    }
    ranked = sorted(dependents, key=lambda key: (-len(dependents[key]), -degree[key], key))
    return [
        Crux(
            assumption=texts[key],
            arguments=tuple(dependents[key]),
            attack_degree=degree[key],
            settling_question=settling_question(texts[key]),
        )
        for key in ranked[:top]
    ]


def extract_outcome(
    *, af: ArgumentationFramework, arguments: Mapping[Hashable, ArgumentInfo]
) -> DebateOutcome:
    """Common ground, camps, disputed arguments and cruxes of one framework."""
    labels = grounded_labelling(af)
    camps = order_camps(preferred_extensions(af))
    disputed = disputed_arguments(camps=camps)
    return DebateOutcome(
        common_ground=_sorted(a for a, label in labels.items() if label == Label.IN),
        camps=tuple(camps),
        disputed=disputed,
        cruxes=tuple(rank_cruxes(af=af, disputed=disputed, arguments=arguments)),
        labels=labels,
    )


def _fault_lines(
    outcome: DebateOutcome, arguments: Mapping[Hashable, ArgumentInfo]
) -> list[dict[str, Any]]:
    """Where the largest camp parts from each other camp: what each side holds alone."""
    if len(outcome.camps) < 2:
        return []
    first = outcome.camps[0]

    def side(members: Iterable[Hashable]) -> dict[str, Any]:
        members = list(members)
        return {
            "arguments": members,
            "speakers": sorted({arguments[a].speaker for a in members if a in arguments}),
            "claims": [arguments[a].claim for a in members if a in arguments],
        }

    lines = []
    for number, camp in enumerate(outcome.camps[1 : MAX_FAULT_LINES + 1], start=2):
        lines.append(
            {
                "camps": [1, number],
                "sideA": side(a for a in first if a not in set(camp)),
                "sideB": side(a for a in camp if a not in set(first)),
            }
        )
    return lines


def _evidence_ledger(
    outcome: DebateOutcome, arguments: Mapping[Hashable, ArgumentInfo]
) -> list[dict[str, Any]]:
    by_speaker: dict[str, list[ArgumentInfo]] = {}
    for argument in _sorted(arguments):
        by_speaker.setdefault(arguments[argument].speaker, []).append(arguments[argument])
    ledger = []
    for speaker in sorted(by_speaker):
        infos = by_speaker[speaker]
        counts = {label.value: 0 for label in Label}
        for info in infos:
            label = outcome.labels.get(info.id)
            if label is not None:
                counts[Label(label).value] += 1
        ledger.append(
            {
                "persona": speaker,
                "arguments": [info.id for info in infos],
                "accepted": counts["IN"],
                "defeated": counts["OUT"],
                "undecided": counts["UNDEC"],
                "evidence": [
                    {"argument": info.id, "text": text} for info in infos for text in info.evidence
                ],
            }
        )
    return ledger


def _flip_conditions(
    outcome: DebateOutcome,
    af: ArgumentationFramework,
    arguments: Mapping[Hashable, ArgumentInfo],
) -> list[dict[str, Any]]:
    attackers: dict[Hashable, list[Hashable]] = {}
    for source, target in af.attacks:
        attackers.setdefault(target, []).append(source)
    flips = []
    for argument in _sorted(a for a, label in outcome.labels.items() if label == Label.OUT):
        defeaters = _sorted(a for a in attackers.get(argument, ()) if outcome.labels[a] == Label.IN)
        names = ", ".join(str(a) for a in defeaters)
        flips.append(
            {
                "argument": argument,
                "claim": arguments[argument].claim if argument in arguments else "",
                "defeatedBy": list(defeaters),
                "condition": f"{argument} would stand again if {names} were defeated.",
            }
        )
    return flips


def summarize(
    *,
    outcome: DebateOutcome,
    af: ArgumentationFramework,
    arguments: Mapping[Hashable, ArgumentInfo],
) -> dict[str, Any]:
    """The outcome as JSON-ready data (ids as given, lists naturally sorted)."""
    return {
        "commonGround": list(outcome.common_ground),
        "camps": [list(camp) for camp in outcome.camps],
        "disputed": list(outcome.disputed),
        "cruxes": [
            {
                "assumption": crux.assumption,
                "settlingQuestion": crux.settling_question,
                "dependentArguments": list(crux.arguments),
                "dependents": crux.dependents,
                "attackDegree": crux.attack_degree,
            }
            for crux in outcome.cruxes
        ],
        "faultLines": _fault_lines(outcome, arguments),
        "evidenceLedger": _evidence_ledger(outcome, arguments),
        "resolutionPaths": [
            {"crux": crux.assumption, "question": crux.settling_question} for crux in outcome.cruxes
        ],
        "flipConditions": _flip_conditions(outcome, af, arguments),
        "labels": {str(a): Label(outcome.labels[a]).value for a in _sorted(outcome.labels)},
    }
