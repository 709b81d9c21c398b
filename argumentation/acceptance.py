"""Credulous and skeptical acceptance of one argument, with witnesses.

Every answer is exact. The cheap cases come first: an argument the grounded
labelling makes IN is in every complete extension, one it makes OUT is in
none. Otherwise:

* DC-CO = DC-PR = "is there an admissible set containing a" (Dung 1995:
  every admissible set lies in a preferred one), one SAT call, and only over
  the arguments with a path of attacks to ``a``: that set is closed under
  attackers, so an admissible set there is admissible in the whole.
* DS-PR: counter-example guided search (CEGARTIX; Dvořák, Järvisalo, Wallner
  & Woltran 2014): grow an admissible set without ``a`` to a maximal one; if
  no admissible superset contains ``a`` it is a preferred extension without
  ``a`` (answer NO), otherwise rule out all its subsets and repeat. Also over
  the ancestors of ``a`` only: preferred semantics is SCC-recursive (Baroni,
  Giacomin & Guida 2005), so a's status depends on its ancestors alone.
* DC-ST / DS-ST: one SAT call on the grounded reduct.
* DC-SST / DS-SST (Caminada 2006): CEGAR over ranges within a's weak
  component — grow the range of complete extensions that satisfy the query,
  then check whether any complete extension has a larger range; if not,
  that extension is semi-stable, otherwise block the ranges it covers.
* DS-GR = DC-GR = DS-CO: membership in the grounded extension.

Witnesses are whole extensions of the given framework: for a credulous YES
one containing the argument, for a skeptical NO one lacking it. Skeptical
acceptance when there is no extension at all (stable semantics) is
vacuously true, with no witness (the ICCMA convention).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .extensions import component_solutions, first_solutions
from .framework import ArgumentationFramework, IndexedGraph
from .grounded import IN, OUT, GroundedReduct, closure_codes, grounded_reduct
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
from .scc import ancestors, weakly_connected_components
from .semantics import normalise_semantics, some_extension

__all__ = ["AcceptanceResult", "credulous_acceptance", "skeptical_acceptance"]


@dataclass(frozen=True, slots=True)
class AcceptanceResult:
    """The answer, and an extension proving it where one can (see module doc)."""

    accepted: bool
    witness: frozenset[Hashable] | None = None


# --------------------------------------------------------------------------
# SAT searches over one local problem; results are local indices.


def _admissible_with(problem: LocalProblem, target: int) -> list[int] | None:
    """An admissible set containing ``target``, or None."""
    m = problem.size
    with Oracle(admissible_clauses(problem), num_vars=2 * m) as oracle:
        if not oracle.solve([target + 1]):
            return None
        return [v - 1 for v in oracle.true_among(range(1, m + 1))]


def _preferred_without(problem: LocalProblem, target: int) -> list[int] | None:
    """A preferred set lacking ``target`` (CEGAR), or None if every one has it."""
    m = problem.size
    xs = range(1, m + 1)
    without = -(target + 1)
    with Oracle(admissible_clauses(problem), num_vars=2 * m, prefer=xs) as oracle:
        while oracle.solve([without]):
            members = grow(oracle, variables=xs, assumptions=[without])
            # Maximal among sets without the target: any larger one has it.
            if not oracle.solve([*members, target + 1]):
                return [v - 1 for v in members]
            chosen = set(members)
            oracle.add([v for v in xs if v not in chosen])
    return None


def _stable_with(problem: LocalProblem, literal: int) -> list[int] | None:
    """A stable set satisfying ``literal`` (±(local index + 1)), or None."""
    m = problem.size
    with Oracle(stable_clauses(problem), num_vars=m) as oracle:
        if not oracle.solve([literal]):
            return None
        return [v - 1 for v in oracle.true_among(range(1, m + 1))]


def _semi_stable_with(problem: LocalProblem, literal: int) -> list[int] | None:
    """A semi-stable set satisfying ``literal``, or None (range CEGAR)."""
    m = problem.size
    xs = range(1, m + 1)
    gs = range(2 * m + 1, 3 * m + 1)
    clauses = complete_clauses(problem) + range_clauses(problem)
    with Oracle(clauses, num_vars=3 * m, prefer=gs) as oracle:
        query = oracle.fresh()
        while oracle.solve([query, literal]):
            reach = grow(oracle, variables=gs, assumptions=[query, literal])
            members = [v - 1 for v in oracle.true_among(xs)]
            chosen = set(reach)
            beyond = [g for g in gs if g not in chosen]
            if not beyond:
                return members
            activation = oracle.fresh()
            oracle.add([-activation, *beyond])
            larger = oracle.solve([activation, *reach])
            oracle.add([-activation])
            if not larger:
                return members
            # No extension meeting the query with a range inside this one is maximal.
            oracle.add([-query, *beyond])
    return None


def _grow_preferred(problem: LocalProblem, seed: list[int]) -> list[int]:
    """A preferred set of ``problem`` containing the admissible local ``seed``."""
    m = problem.size
    xs = range(1, m + 1)
    assumptions = [v + 1 for v in seed]
    with Oracle(admissible_clauses(problem), num_vars=2 * m, prefer=xs) as oracle:
        oracle.solve(assumptions)
        return [v - 1 for v in grow(oracle, variables=xs, assumptions=assumptions)]


# --------------------------------------------------------------------------
# Assembling witnesses.


def _component_of(graph: IndexedGraph, reduct: GroundedReduct, target: int) -> list[int]:
    components = weakly_connected_components(graph, nodes=[target], inside=reduct.inside)
    return components[0]


def _with_other_components(
    af: ArgumentationFramework,
    reduct: GroundedReduct,
    semantics: str,
    target: int,
    part: list[int],
) -> frozenset[Hashable] | None:
    """Grounded IN + ``part`` (global, in target's component) + any solution elsewhere."""
    graph = af.graph
    others = [
        (component, source)
        for component, source in component_solutions(graph, reduct, semantics)
        if target not in component
    ]
    rest = first_solutions(others)
    if rest is None:
        return None
    names = af.arguments
    return frozenset(names[v] for v in reduct.accepted + part + rest)


def _names(af: ArgumentationFramework, indices: list[int]) -> frozenset[Hashable]:
    names = af.arguments
    return frozenset(names[v] for v in indices)


def _preferred_containing(
    af: ArgumentationFramework, reduct: GroundedReduct, target: int, seed: list[int]
) -> frozenset[Hashable]:
    """A preferred extension containing the admissible global ``seed`` (in target's component)."""
    component = _component_of(af.graph, reduct, target)
    problem = local_problem(af.graph, nodes=component)
    position = {v: i for i, v in enumerate(component)}
    grown = _grow_preferred(problem, [position[v] for v in seed])
    witness = _with_other_components(af, reduct, "PR", target, [component[v] for v in grown])
    assert witness is not None, "preferred extensions always exist"
    return witness


# --------------------------------------------------------------------------
# Public entry points.


def credulous_acceptance(
    af: ArgumentationFramework, arg: Hashable, semantics: str, *, witness: bool = True
) -> AcceptanceResult:
    """Is ``arg`` in some extension? Witness: such an extension.

    ``witness=False`` skips growing a whole witness for a YES under complete or
    preferred semantics (the answer comes from the ancestors alone); a caller
    asking about every argument of a large framework saves most of the time.
    """
    code = normalise_semantics(semantics)
    graph = af.graph
    target = af.index(arg)
    reduct = grounded_reduct(graph)
    status = reduct.codes[target]
    if code == "GR" or status == OUT:
        if status == IN:
            return AcceptanceResult(True, _names(af, reduct.accepted))
        return AcceptanceResult(False)
    if status == IN:
        witness = some_extension(af, code)
        return AcceptanceResult(witness is not None, witness)
    if code in ("CO", "PR"):
        upstream = ancestors(graph, target=target, inside=reduct.inside)
        found = _admissible_with(local_problem(graph, nodes=upstream), 0)
        if found is None:
            return AcceptanceResult(False)
        if not witness:
            return AcceptanceResult(True)
        seed = [upstream[v] for v in found]
        if code == "CO":
            codes = closure_codes(graph, seed=seed)
            return AcceptanceResult(True, _names(af, [v for v, c in enumerate(codes) if c == IN]))
        return AcceptanceResult(True, _preferred_containing(af, reduct, target, seed))
    return _by_whole_search(af, reduct, code, target, want=True)


def skeptical_acceptance(
    af: ArgumentationFramework, arg: Hashable, semantics: str, *, witness: bool = True
) -> AcceptanceResult:
    """Is ``arg`` in every extension? Witness for NO: an extension without it.

    ``witness=False`` skips growing a whole witness for a NO under preferred
    semantics (the answer comes from the ancestors alone).
    """
    code = normalise_semantics(semantics)
    graph = af.graph
    target = af.index(arg)
    reduct = grounded_reduct(graph)
    status = reduct.codes[target]
    if status == IN:
        return AcceptanceResult(True)
    if code in ("GR", "CO"):
        return AcceptanceResult(False, _names(af, reduct.accepted))
    if status == OUT:
        witness = some_extension(af, code)
        return AcceptanceResult(witness is None, witness)
    if code == "PR":
        upstream = ancestors(graph, target=target, inside=reduct.inside)
        found = _preferred_without(local_problem(graph, nodes=upstream), 0)
        if found is None:
            return AcceptanceResult(True)
        if not witness:
            return AcceptanceResult(False)
        # Preferred among the ancestors, so growing it never adds the target.
        seed = [upstream[v] for v in found]
        return AcceptanceResult(False, _preferred_containing(af, reduct, target, seed))
    return _by_whole_search(af, reduct, code, target, want=False)


def _by_whole_search(
    af: ArgumentationFramework,
    reduct: GroundedReduct,
    code: str,
    target: int,
    *,
    want: bool,
) -> AcceptanceResult:
    """ST and SST for an UNDEC target: search for an extension with (``want``)
    or without the target; credulous YES / skeptical NO when one exists."""
    graph = af.graph
    if code == "ST":
        nodes = reduct.undecided
        problem = local_problem(graph, nodes=nodes)
        local = nodes.index(target)
        found = _stable_with(problem, local + 1 if want else -(local + 1))
        witness = None if found is None else _names(af, reduct.accepted + [nodes[v] for v in found])
    else:
        nodes = _component_of(graph, reduct, target)
        problem = local_problem(graph, nodes=nodes)
        local = nodes.index(target)
        found = _semi_stable_with(problem, local + 1 if want else -(local + 1))
        witness = None
        if found is not None:
            witness = _with_other_components(af, reduct, "SST", target, [nodes[v] for v in found])
    if want:
        return AcceptanceResult(witness is not None, witness)
    return AcceptanceResult(witness is None, witness)
