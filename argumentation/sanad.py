"""The claim registry's pure core: claims, evidence chains (sanad), calculations, grades.

A factual claim an agent relies on is a `Claim` (`C-…`) with one or more
`EvidenceChain`s: the ordered links from the claim back to the case file, span →
reporting source → upstream origin(s). A deterministic figure (a percentage, a
difference, a sum) is a `Calc` (`K-…`) computed here with `Decimal` from its inputs,
never by a model.

The grade borrows its vocabulary from the hadith sciences' *isnad* criticism (a chain
with a missing narrator is broken; several independent chains make a report
stronger; chains that meet at one narrator count as one) and from the IDIS design
this product was specified with (grades A-D; `BROKEN_CHAIN`, `MISSING_LINK`,
`UNKNOWN_SOURCE`; independence from `upstream_origin_id` and chain-segment overlap,
computed, never asked of a model).

Inputs are plain data so the function stays pure: the claim's chains and a
`Resolver` holding the case file's known spans (span id → the source it belongs to)
and known sources (source id → its `upstream_origin_id` or None).

Defects, per chain, checked link by link
========================================

==============  =====================================================  ======
code            when                                                   fatal
==============  =====================================================  ======
MISSING_LINK    the chain has no span link or no reporting-source      yes
                link, or a link's id is blank
BROKEN_CHAIN    the span id is not a known span; or the span belongs   yes
                to another source than the chain's reporting source;
                or an origin link is not the upstream origin the
                registry records for the link before it
UNKNOWN_SOURCE  the reporting source is not a known source             yes
UNKNOWN_SOURCE  an origin link (or the origin the registry records)    no
                is not a source of the case file
MISSING_LINK    the chain stops before an upstream origin the          no
                registry records (it is filled in from the registry)
==============  =====================================================  ======

A chain is *sound* when it has no fatal defect. Non-fatal defects are reported (and
shown) but the chain still counts.

Independence
============

Every chain has a set of *nodes*: the ids it names (span, reporting source, origins)
plus the registry's ancestry of its reporting source (following `upstream_origin_id`
to the root, cycles cut). A chain that names, or whose ancestry reaches, a source or
origin outside the case file also gets one shared node, `UNKNOWN_ORIGIN_NODE`: what
cannot be traced cannot be shown to be independent, so all such chains are taken to
share one origin (conservative).

Two chains are *dependent* when their node sets intersect: they share a span, a
reporting source, or an upstream origin (two articles quoting one study), i.e. they
overlap in a chain segment. Dependence is transitive: chains are grouped into
independence classes by union-find over shared nodes. Classes are built from **all**
chains, defective ones included, so that declaring a chain defective can only take
support away, never split a class (a broken chain that ties two witnesses together
still says they are entangled).

Grade
=====

Let *n* be the number of independence classes that contain at least one sound chain.

=====  ===========================================================================
grade  rule
=====  ===========================================================================
A      n ≥ 3: three or more independent chains corroborate (the strongest)
B      n = 2: two independent chains
C      n = 1: one chain, or several that share an origin or a segment (dependent
       chains count once: the downgrade)
D      n = 0: no chain, or every chain has a fatal defect
=====  ===========================================================================

Properties (tested): adding a chain independent of the others never lowers the
grade; adding a defect (a defective chain, an id the case file does not know) never
raises it; the grade does not depend on the order of the chains.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from enum import StrEnum

__all__ = [
    "CALC_ID_RE",
    "CLAIM_ID_RE",
    "UNKNOWN_ORIGIN_NODE",
    "Calc",
    "CalcOp",
    "Claim",
    "Defect",
    "DefectCode",
    "EvidenceChain",
    "Grade",
    "GradeResult",
    "Resolver",
    "chain_defects",
    "chain_nodes",
    "compute_calc",
    "grade_chains",
    "grade_claim",
    "independence_classes",
]

CLAIM_ID_RE = re.compile(r"C-[0-9A-Za-z]+")
CALC_ID_RE = re.compile(r"K-[0-9A-Za-z]+")

# A node no real id can equal (ids never contain spaces), shared by every chain whose
# origin lies outside the case file.
UNKNOWN_ORIGIN_NODE = "<unknown origin>"


class Grade(StrEnum):
    A = "A"
    B = "B"
    C = "C"
    D = "D"

    @property
    def rank(self) -> int:
        """3 for A down to 0 for D, for comparing grades."""
        return "DCBA".index(self.value)


class DefectCode(StrEnum):
    BROKEN_CHAIN = "BROKEN_CHAIN"
    MISSING_LINK = "MISSING_LINK"
    UNKNOWN_SOURCE = "UNKNOWN_SOURCE"


@dataclass(frozen=True)
class Defect:
    code: DefectCode
    chain_index: int
    fatal: bool
    detail: str


@dataclass(frozen=True)
class EvidenceChain:
    """span → reporting source → upstream origins, as an agent declared it."""

    span_id: str | None
    source_id: str | None
    origin_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Resolver:
    """What the case file knows: span id → its source id; source id → its upstream origin."""

    spans: Mapping[str, str] = field(default_factory=dict)
    sources: Mapping[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Claim:
    id: str
    text: str
    chains: tuple[EvidenceChain, ...] = ()

    def __post_init__(self) -> None:
        if not CLAIM_ID_RE.fullmatch(self.id):
            raise ValueError(f"A claim id looks like C-12, not {self.id!r}.")


@dataclass(frozen=True)
class GradeResult:
    grade: Grade
    defects: tuple[Defect, ...]
    classes: tuple[tuple[int, ...], ...]
    """Independence classes as sorted chain indices (all chains, defective included)."""
    sound_chains: tuple[int, ...]


def _blank(value: str | None) -> bool:
    return value is None or not value.strip()


def _ancestry(source_id: str, resolver: Resolver) -> list[str]:
    """The registry's upstream origins of a source, nearest first, stopping at a cycle."""
    seen = {source_id}
    out: list[str] = []
    current = resolver.sources.get(source_id)
    while current is not None and current not in seen:
        out.append(current)
        seen.add(current)
        current = resolver.sources.get(current)
    return out


def chain_defects(chain: EvidenceChain, resolver: Resolver, index: int = 0) -> list[Defect]:
    """The defects of one chain, by the table in the module docstring."""
    defects: list[Defect] = []

    def add(code: DefectCode, fatal: bool, detail: str) -> None:
        defects.append(Defect(code=code, chain_index=index, fatal=fatal, detail=detail))

    if _blank(chain.span_id):
        add(DefectCode.MISSING_LINK, True, "The chain names no span.")
    elif chain.span_id not in resolver.spans:
        add(DefectCode.BROKEN_CHAIN, True, f"Span {chain.span_id} is not in the case file.")
    if _blank(chain.source_id):
        add(DefectCode.MISSING_LINK, True, "The chain names no reporting source.")
        return defects
    source_id = chain.source_id
    assert source_id is not None
    if source_id not in resolver.sources:
        add(DefectCode.UNKNOWN_SOURCE, True, f"Source {source_id} is not in the case file.")
        return defects
    span_source = resolver.spans.get(chain.span_id or "")
    if span_source is not None and span_source != source_id:
        add(
            DefectCode.BROKEN_CHAIN,
            True,
            f"Span {chain.span_id} belongs to source {span_source}, not {source_id}.",
        )
    previous = source_id
    for origin in chain.origin_ids:
        if _blank(origin):
            add(DefectCode.MISSING_LINK, True, f"A link after {previous} is blank.")
            return defects
        # `previous` is a known source here: unknown ones returned above.
        expected = resolver.sources.get(previous)
        if expected != origin:
            recorded = expected or "no upstream origin"
            add(
                DefectCode.BROKEN_CHAIN,
                True,
                f"{previous} reports from {recorded} in the case file, not {origin}.",
            )
            return defects
        if origin not in resolver.sources:
            add(DefectCode.UNKNOWN_SOURCE, False, f"Origin {origin} is not in the case file.")
            return defects
        previous = origin
    remaining = resolver.sources.get(previous)
    if remaining is not None:
        add(
            DefectCode.MISSING_LINK,
            False,
            f"The chain stops at {previous}, which reports from {remaining}.",
        )
        if remaining not in resolver.sources:
            add(DefectCode.UNKNOWN_SOURCE, False, f"Origin {remaining} is not in the case file.")
    return defects


def chain_nodes(chain: EvidenceChain, resolver: Resolver) -> frozenset[str]:
    """The ids a chain rests on, for independence (see the module docstring)."""
    named_sources = [v.strip() for v in (chain.source_id, *chain.origin_ids) if v and v.strip()]
    nodes = set(named_sources)
    for source in named_sources:
        nodes.update(_ancestry(source, resolver))
    untraceable = any(n not in resolver.sources for n in nodes)
    if chain.span_id and chain.span_id.strip():
        nodes.add(chain.span_id.strip())
    if untraceable:
        nodes.add(UNKNOWN_ORIGIN_NODE)
    return frozenset(nodes)


def independence_classes(node_sets: Sequence[Iterable[str]]) -> tuple[tuple[int, ...], ...]:
    """Union-find over shared nodes: groups of indices whose node sets are linked."""
    parent = list(range(len(node_sets)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, nodes in enumerate(node_sets):
        for node in nodes:
            if node in owner:
                a, b = find(i), find(owner[node])
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                owner[node] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(node_sets)):
        groups.setdefault(find(i), []).append(i)
    return tuple(sorted(tuple(g) for g in groups.values()))


_GRADE_BY_COUNT = {0: Grade.D, 1: Grade.C, 2: Grade.B}


def grade_chains(chains: Sequence[EvidenceChain], resolver: Resolver) -> GradeResult:
    """Grade a claim's chains by the rules in the module docstring."""
    defects: list[Defect] = []
    sound: list[int] = []
    for i, chain in enumerate(chains):
        found = chain_defects(chain, resolver, i)
        defects.extend(found)
        if not any(d.fatal for d in found):
            sound.append(i)
    classes = independence_classes([chain_nodes(c, resolver) for c in chains])
    sound_set = set(sound)
    n = sum(1 for cls in classes if sound_set.intersection(cls))
    grade = _GRADE_BY_COUNT.get(n, Grade.A)
    return GradeResult(
        grade=grade, defects=tuple(defects), classes=classes, sound_chains=tuple(sound)
    )


def grade_claim(claim: Claim, resolver: Resolver) -> GradeResult:
    return grade_chains(claim.chains, resolver)


class CalcOp(StrEnum):
    PERCENTAGE = "percentage"
    """inputs (part, whole): part / whole × 100."""
    DIFFERENCE = "difference"
    """inputs (a, b): a − b."""
    SUM = "sum"
    """inputs (x₁ … xₙ), n ≥ 1: their sum."""


@dataclass(frozen=True)
class Calc:
    """A figure computed by code: `result` is derived in `__post_init__`, never given."""

    id: str
    op: CalcOp
    inputs: tuple[Decimal, ...]
    input_span_ids: tuple[str, ...] = ()
    result: Decimal = field(init=False)

    def __post_init__(self) -> None:
        if not CALC_ID_RE.fullmatch(self.id):
            raise ValueError(f"A calculation id looks like K-3, not {self.id!r}.")
        object.__setattr__(self, "result", compute_calc(self.op, self.inputs))


def _decimal(value: Decimal | int | str) -> Decimal:
    if isinstance(value, float):
        # A float has already lost the digits the span wrote; make the caller parse text.
        raise TypeError("Give calculation inputs as Decimal, int or str, not float.")
    try:
        number = Decimal(value)
    except (InvalidOperation, ValueError) as exc:
        raise ValueError(f"{value!r} is not a number.") from exc
    if not number.is_finite():
        raise ValueError(f"{value!r} is not a finite number.")
    return number


def compute_calc(
    op: CalcOp | str, inputs: Sequence[Decimal | int | str], *, places: int = 2
) -> Decimal:
    """Compute a calculation exactly with Decimal; a percentage is rounded half-even to `places`."""
    op = CalcOp(op)
    values = [_decimal(v) for v in inputs]
    if op is CalcOp.PERCENTAGE:
        if len(values) != 2:
            raise ValueError("A percentage takes two inputs: the part and the whole.")
        part, whole = values
        if whole == 0:
            raise ValueError("A percentage of a whole of zero is undefined.")
        quantum = Decimal(1).scaleb(-places)
        return (part * 100 / whole).quantize(quantum, rounding=ROUND_HALF_EVEN)
    if op is CalcOp.DIFFERENCE:
        if len(values) != 2:
            raise ValueError("A difference takes two inputs: a and b (a − b).")
        return values[0] - values[1]
    if not values:
        raise ValueError("A sum takes at least one input.")
    return sum(values, Decimal(0))
