"""Dispatch by ICCMA semantics code: enumerate, count, or find one extension.

Codes as in ICCMA: GR grounded, CO complete, PR preferred, ST stable, SST
semi-stable. Counting multiplies the solution counts of the independent
weak components of the grounded reduct instead of listing the product, and
finding one extension asks each component for its first solution only.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from .extensions import (
    complete_extensions,
    component_solutions,
    first_solutions,
    preferred_extensions,
    semi_stable_extensions,
    stable_extensions,
)
from .framework import ArgumentationFramework
from .grounded import grounded_extension, grounded_reduct

__all__ = ["SEMANTICS", "count_extensions", "extensions", "normalise_semantics", "some_extension"]

SEMANTICS: tuple[str, ...] = ("GR", "CO", "PR", "ST", "SST")

_ENUMERATORS = {
    "CO": complete_extensions,
    "PR": preferred_extensions,
    "ST": stable_extensions,
    "SST": semi_stable_extensions,
}


def normalise_semantics(semantics: str) -> str:
    """The ICCMA code in upper case; ``ValueError`` for anything else."""
    code = semantics.upper() if isinstance(semantics, str) else semantics
    if code not in SEMANTICS:
        raise ValueError(f"unknown semantics {semantics!r}; expected one of {', '.join(SEMANTICS)}")
    return code


def extensions(af: ArgumentationFramework, semantics: str) -> Iterator[frozenset[Hashable]]:
    """Every extension of ``af`` under ``semantics``, each exactly once."""
    code = normalise_semantics(semantics)
    if code == "GR":
        return iter((grounded_extension(af),))
    return _ENUMERATORS[code](af)


def count_extensions(af: ArgumentationFramework, semantics: str) -> int:
    """The exact number of extensions of ``af`` under ``semantics``."""
    code = normalise_semantics(semantics)
    if code == "GR":
        return 1
    graph = af.graph
    sources = component_solutions(graph, grounded_reduct(graph), code)
    total = 1
    # Smallest components first: a component without solutions ends it early.
    for _, source in reversed(sources):
        count = sum(1 for _ in source())
        if not count:
            return 0
        total *= count
    return total


def some_extension(af: ArgumentationFramework, semantics: str) -> frozenset[Hashable] | None:
    """One extension of ``af`` under ``semantics``; None only if there is none (ST)."""
    code = normalise_semantics(semantics)
    if code in ("GR", "CO"):
        return grounded_extension(af)
    graph = af.graph
    reduct = grounded_reduct(graph)
    found = first_solutions(component_solutions(graph, reduct, code))
    if found is None:
        return None
    names = af.arguments
    return frozenset(names[v] for v in reduct.accepted + found)
