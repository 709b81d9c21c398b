"""Exact enumeration of complete, preferred, stable and semi-stable extensions.

The pipeline, cheapest step first:

1. Grounded reduct (:mod:`.grounded`): the linear-time grounded labelling
   decides many arguments; only its UNDEC part goes further.
2. Weak components of that part are independent: the extensions of the
   whole are the products of the components' extensions (plus grounded IN),
   so counting multiplies and one huge component never drags small ones.
3. Inside a component:

   * complete and preferred: SCC-recursive search (Baroni, Giacomin & Guida
     2005; the labelling-based algorithm of Cerutti, Giacomin, Vallati &
     Zanella 2014, "An SCC recursive meta-algorithm for computing preferred
     labellings"). SCCs are visited in topological order; the labels
     already chosen upstream force each argument of the next SCC to OUT (an
     IN attacker), forbid it to be IN (an UNDEC attacker), or leave it free.
     The SCC's local complete labellings (CO), or its IN-maximal ones (PR),
     under that input are computed by SAT and cached per input. A global
     labelling is preferred iff every local one is IN-maximal for its input,
     so the leaves of this search are exactly the extensions, each once.
   * preferred sets of one local problem: PrefSAT (Cerutti, Dunne, Giacomin
     & Vallati 2013): find an admissible set, grow it to a maximal one by
     iterative SAT calls, then block every subset of it and repeat.
   * stable: one SAT model per extension, blocked after use (Besnard &
     Doutre 2004 encoding).
   * semi-stable: complete extensions with maximal range (Caminada 2006),
     found by growing the range, listing every complete extension with
     exactly that range, then blocking all smaller-or-equal ranges (the
     range-maximisation of CEGARTIX, Dvořák, Järvisalo, Wallner & Woltran
     2014). When stable extensions exist this yields exactly those.

Internal generators yield lists of argument *indices*; the public functions
turn them into frozensets of argument ids.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from itertools import product

from .framework import ArgumentationFramework, IndexedGraph
from .grounded import IN, OUT, UNDEC, GroundedReduct, grounded_reduct
from .sat_encoding import (
    LocalProblem,
    Oracle,
    admissible_clauses,
    complete_clauses,
    grow,
    local_problem,
    range_clauses,
    stable_clauses,
)
from .scc import strongly_connected_components, weakly_connected_components

__all__ = [
    "complete_extensions",
    "component_solutions",
    "first_solutions",
    "preferred_extensions",
    "semi_stable_extensions",
    "stable_extensions",
]

Solutions = Iterator[list[int]]

# Status of an argument of an SCC given its attackers outside the SCC.
_FREE, _BLOCKED, _FORCED_OUT = 0, 1, 2


# --------------------------------------------------------------------------
# One local problem: SAT enumerations over local indices.


def _preferred_sets(problem: LocalProblem) -> Solutions:
    """IN-maximal admissible sets of ``problem`` (PrefSAT), as local indices."""
    m = problem.size
    xs = range(1, m + 1)
    with Oracle(admissible_clauses(problem), num_vars=2 * m, prefer=xs) as oracle:
        while oracle.solve():
            members = grow(oracle, variables=xs, assumptions=[])
            yield [v - 1 for v in members]
            chosen = set(members)
            outside = [v for v in xs if v not in chosen]
            if not outside:
                return
            # Every later preferred set has a member outside this one.
            oracle.add(outside)


def _complete_sets(problem: LocalProblem) -> Solutions:
    """All complete sets of ``problem``, as local indices."""
    m = problem.size
    with Oracle(complete_clauses(problem), num_vars=2 * m) as oracle:
        while oracle.solve():
            signs = oracle.model[:m]
            yield [v for v in range(m) if signs[v] > 0]
            # A complete labelling is fixed by its IN set: block exactly it.
            oracle.add([-literal for literal in signs])


def _stable_sets(problem: LocalProblem) -> Solutions:
    """All stable sets of ``problem``, as local indices."""
    m = problem.size
    with Oracle(stable_clauses(problem), num_vars=m) as oracle:
        while oracle.solve():
            members = oracle.true_among(range(1, m + 1))
            yield [v - 1 for v in members]
            if not members:
                return
            # Stable sets are pairwise incomparable: another one lacks a member of this.
            oracle.add([-v for v in members])


def _semi_stable_sets(problem: LocalProblem) -> Solutions:
    """All complete sets of ``problem`` whose range is maximal, as local indices."""
    m = problem.size
    gs = range(2 * m + 1, 3 * m + 1)
    clauses = complete_clauses(problem) + range_clauses(problem)
    with Oracle(clauses, num_vars=3 * m, prefer=gs) as oracle:
        while oracle.solve():
            reach = set(grow(oracle, variables=gs, assumptions=[]))
            exact = [g if g in reach else -g for g in gs]
            while oracle.solve(exact):
                signs = oracle.model[:m]
                yield [v for v in range(m) if signs[v] > 0]
                oracle.add([-literal for literal in signs])
            beyond = [g for g in gs if g not in reach]
            if not beyond:
                return
            # Later ranges must not be covered by this maximal one.
            oracle.add(beyond)


def _to_global(problem: LocalProblem, sets: Solutions) -> Solutions:
    nodes = problem.nodes
    for members in sets:
        yield [nodes[v] for v in members]


# --------------------------------------------------------------------------
# SCC-recursive search over one weak component.


class _Lazy:
    """A list filled from an iterator only as far as it has been read."""

    __slots__ = ("_items", "_source")

    def __init__(self, source: Iterator[tuple[list[int], list[int]]]) -> None:
        self._items: list[tuple[list[int], list[int]]] = []
        self._source: Iterator[tuple[list[int], list[int]]] | None = source

    def get(self, position: int) -> tuple[list[int], list[int]] | None:
        items = self._items
        while len(items) <= position and self._source is not None:
            item = next(self._source, None)
            if item is None:
                self._source = None
            else:
                items.append(item)
        return items[position] if position < len(items) else None


def _local_labellings(
    graph: IndexedGraph, scc: list[int], status: bytes, preferred: bool
) -> Iterator[tuple[list[int], list[int]]]:
    """(IN, OUT) global index lists of the SCC's local CO or PR labellings."""
    forced = [v for v, s in zip(scc, status, strict=True) if s == _FORCED_OUT]
    if len(scc) == 1:
        # Trivial SCC: the labels follow directly (no SAT call).
        v = scc[0]
        if status[0] == _FORCED_OUT:
            yield [], [v]
        elif status[0] == _BLOCKED or v in graph.attackers[v]:
            yield [], []
        else:
            yield [v], []
        return
    nodes = [v for v, s in zip(scc, status, strict=True) if s != _FORCED_OUT]
    blocked = [v for v, s in zip(scc, status, strict=True) if s == _BLOCKED]
    problem = local_problem(graph, nodes=nodes, blocked=blocked)
    sets = _preferred_sets(problem) if preferred else _complete_sets(problem)
    for members in sets:
        chosen = bytearray(len(nodes))
        for v in members:
            chosen[v] = 1
        attacked = [
            nodes[v]
            for v, attackers in enumerate(problem.attackers)
            if any(chosen[u] for u in attackers)
        ]
        yield [nodes[v] for v in members], forced + attacked


def _scc_recursive(
    graph: IndexedGraph, *, sccs: list[list[int]], codes: bytearray, preferred: bool
) -> Solutions:
    """IN sets of the component's complete (or preferred) labellings.

    ``codes`` holds the grounded codes; this generator writes the labels of
    the component's arguments into it while it searches (the component's
    arguments must start UNDEC). Depth-first over the SCCs, without
    recursion so that long SCC chains are fine.
    """
    attackers = graph.attackers
    depth_count = len(sccs)
    owner: dict[int, int] = {}
    for depth, scc in enumerate(sccs):
        for v in scc:
            owner[v] = depth
    cache: dict[tuple[int, bytes], _Lazy] = {}

    def options(depth: int) -> _Lazy:
        statuses = bytearray()
        for v in sccs[depth]:
            state = _FREE
            for u in attackers[v]:
                if owner.get(u) == depth:
                    continue
                code = codes[u]
                if code == IN:
                    state = _FORCED_OUT
                    break
                if code == UNDEC:
                    state = _BLOCKED
            statuses.append(state)
        key = (depth, bytes(statuses))
        found = cache.get(key)
        if found is None:
            found = cache[key] = _Lazy(_local_labellings(graph, sccs[depth], key[1], preferred))
        return found

    if not sccs:
        yield []
        return
    chosen: list[list[int]] = [[] for _ in sccs]
    lazies = [options(0)] + [None] * (depth_count - 1)
    positions = [0] * depth_count
    depth = 0
    while depth >= 0:
        for v in sccs[depth]:
            codes[v] = UNDEC
        option = lazies[depth].get(positions[depth])
        if option is None:
            depth -= 1
            continue
        positions[depth] += 1
        members, beaten = option
        for v in members:
            codes[v] = IN
        for v in beaten:
            codes[v] = OUT
        chosen[depth] = members
        if depth + 1 == depth_count:
            yield [v for members in chosen for v in members]
        else:
            depth += 1
            positions[depth] = 0
            lazies[depth] = options(depth)


# --------------------------------------------------------------------------
# Components and the public enumerators.


def component_solutions(
    graph: IndexedGraph, reduct: GroundedReduct, semantics: str
) -> list[tuple[list[int], Callable[[], Solutions]]]:
    """Each weak component of the reduct with a source of its solutions.

    ``semantics`` is one of "CO", "PR", "ST", "SST". A source is a function
    returning a fresh iterator of IN-index lists; call it once. The
    extensions of the framework are grounded-IN plus one solution of every
    component. The largest component comes first, so callers can stream it
    and materialise only the others.
    """
    nodes, inside = reduct.undecided, reduct.inside
    components = weakly_connected_components(graph, nodes=nodes, inside=inside)
    components.sort(key=len, reverse=True)
    if semantics in ("CO", "PR"):
        sccs = strongly_connected_components(graph, nodes=nodes, inside=inside)
        which = {}
        for number, component in enumerate(components):
            for v in component:
                which[v] = number
        grouped: list[list[list[int]]] = [[] for _ in components]
        for scc in sccs:
            grouped[which[scc[0]]].append(scc)
        # Components never attack each other, so they can share one scratch copy.
        codes = bytearray(reduct.codes)
        preferred = semantics == "PR"
        return [
            (
                component,
                lambda group=group: _scc_recursive(
                    graph, sccs=group, codes=codes, preferred=preferred
                ),
            )
            for component, group in zip(components, grouped, strict=True)
        ]
    enumerate_sets = {"ST": _stable_sets, "SST": _semi_stable_sets}[semantics]
    sources = []
    for component in components:
        problem = local_problem(graph, nodes=component)
        sources.append(
            (component, lambda problem=problem: _to_global(problem, enumerate_sets(problem)))
        )
    return sources


def first_solutions(
    sources: list[tuple[list[int], Callable[[], Solutions]]],
) -> list[int] | None:
    """One solution of every component, concatenated; None if one has none."""
    found: list[int] = []
    for _, source in sources:
        solutions = source()
        first = next(solutions, None)
        solutions.close()
        if first is None:
            return None
        found.extend(first)
    return found


def _extensions(af: ArgumentationFramework, semantics: str) -> Iterator[frozenset[Hashable]]:
    graph = af.graph
    reduct = grounded_reduct(graph)
    names = af.arguments
    base = [names[v] for v in reduct.accepted]
    sources = component_solutions(graph, reduct, semantics)
    if not sources:
        yield frozenset(base)
        return
    rest = [list(source()) for _, source in sources[1:]]
    if not all(rest):
        return
    for head in sources[0][1]():
        head_names = base + [names[v] for v in head]
        for tail in product(*rest):
            yield frozenset(head_names + [names[v] for part in tail for v in part])


def complete_extensions(af: ArgumentationFramework) -> Iterator[frozenset[Hashable]]:
    """Every complete extension (Dung 1995) exactly once."""
    return _extensions(af, "CO")


def preferred_extensions(af: ArgumentationFramework) -> Iterator[frozenset[Hashable]]:
    """Every preferred (maximal admissible) extension exactly once."""
    return _extensions(af, "PR")


def stable_extensions(af: ArgumentationFramework) -> Iterator[frozenset[Hashable]]:
    """Every stable extension exactly once (possibly none)."""
    return _extensions(af, "ST")


def semi_stable_extensions(af: ArgumentationFramework) -> Iterator[frozenset[Hashable]]:
    """Every semi-stable extension (complete with maximal range) exactly once."""
    return _extensions(af, "SST")
