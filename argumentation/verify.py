"""Direct checks of Dung's (1995) set properties, for witnesses and tests.

Each runs in time linear in the attacks touching the set; none uses a
solver, so they can check the solvers' answers independently.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from .framework import ArgumentationFramework

__all__ = ["is_admissible", "is_complete", "is_conflict_free", "is_stable"]


def _indices(af: ArgumentationFramework, members: Iterable[Hashable]) -> set[int]:
    return {af.index(argument) for argument in members}


def _conflict_free(af: ArgumentationFramework, chosen: set[int]) -> bool:
    attacked = af.graph.attacked
    return not any(j in chosen for i in chosen for j in attacked[i])


def _beaten(af: ArgumentationFramework, chosen: set[int]) -> set[int]:
    attacked = af.graph.attacked
    return {j for i in chosen for j in attacked[i]}


def is_conflict_free(af: ArgumentationFramework, members: Iterable[Hashable]) -> bool:
    """No member attacks a member (``ValueError`` for unknown arguments)."""
    return _conflict_free(af, _indices(af, members))


def is_admissible(af: ArgumentationFramework, members: Iterable[Hashable]) -> bool:
    """Conflict-free, and every attacker of a member is attacked by a member."""
    chosen = _indices(af, members)
    if not _conflict_free(af, chosen):
        return False
    beaten = _beaten(af, chosen)
    attackers = af.graph.attackers
    return all(u in beaten for v in chosen for u in attackers[v])


def is_complete(af: ArgumentationFramework, members: Iterable[Hashable]) -> bool:
    """Admissible, and containing every argument it defends."""
    chosen = _indices(af, members)
    if not is_admissible(af, (af.arguments[i] for i in chosen)):
        return False
    beaten = _beaten(af, chosen)
    attackers = af.graph.attackers
    return all(v in chosen for v in range(af.graph.n) if all(u in beaten for u in attackers[v]))


def is_stable(af: ArgumentationFramework, members: Iterable[Hashable]) -> bool:
    """Conflict-free, and attacking every argument outside the set."""
    chosen = _indices(af, members)
    if not _conflict_free(af, chosen):
        return False
    beaten = _beaten(af, chosen)
    return all(v in chosen or v in beaten for v in range(af.graph.n))
