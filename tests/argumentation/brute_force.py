"""Reference semantics by exhaustive search, straight from the definitions.

Dung (1995) for conflict-free, admissible, complete, grounded, preferred and
stable sets; Caminada (2006) for semi-stable (complete with maximal range).
Every subset of the arguments is examined, so use it on small frameworks
only (2^n subsets). It deliberately shares no code with ``argumentation``:
it works on a plain set of argument ids and a set of attack pairs.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from itertools import combinations

__all__ = ["BruteForce"]


class BruteForce:
    """All extensions of a small framework under every ICCMA semantics."""

    def __init__(self, arguments: Iterable[Hashable], attacks: Iterable[tuple]) -> None:
        self.arguments = frozenset(arguments)
        self.attacks = frozenset(attacks)
        members = sorted(self.arguments, key=repr)
        self.subsets = [
            frozenset(chosen)
            for size in range(len(members) + 1)
            for chosen in combinations(members, size)
        ]

    def attacks_argument(self, chosen: frozenset, target: Hashable) -> bool:
        return any((source, target) in self.attacks for source in chosen)

    def conflict_free(self, chosen: frozenset) -> bool:
        return not any((a, b) in self.attacks for a in chosen for b in chosen)

    def defends(self, chosen: frozenset, target: Hashable) -> bool:
        return all(
            self.attacks_argument(chosen, source)
            for source in self.arguments
            if (source, target) in self.attacks
        )

    def admissible(self, chosen: frozenset) -> bool:
        return self.conflict_free(chosen) and all(self.defends(chosen, a) for a in chosen)

    def complete(self, chosen: frozenset) -> bool:
        return self.admissible(chosen) and all(
            a in chosen for a in self.arguments if self.defends(chosen, a)
        )

    def stable(self, chosen: frozenset) -> bool:
        return self.conflict_free(chosen) and all(
            a in chosen or self.attacks_argument(chosen, a) for a in self.arguments
        )

    def range_of(self, chosen: frozenset) -> frozenset:
        return chosen | {a for a in self.arguments if self.attacks_argument(chosen, a)}

    def extensions(self, semantics: str) -> set[frozenset]:
        complete = [s for s in self.subsets if self.complete(s)]
        if semantics == "CO":
            return set(complete)
        if semantics == "GR":
            # The least complete extension: contained in all the others.
            return {s for s in complete if all(s <= other for other in complete)}
        if semantics == "PR":
            admissible = [s for s in self.subsets if self.admissible(s)]
            return {s for s in admissible if not any(s < other for other in admissible)}
        if semantics == "ST":
            return {s for s in self.subsets if self.stable(s)}
        if semantics == "SST":
            ranges = {s: self.range_of(s) for s in complete}
            return {s for s in complete if not any(ranges[s] < ranges[other] for other in complete)}
        raise ValueError(semantics)

    def grounded_labels(self) -> dict[Hashable, str]:
        (grounded,) = self.extensions("GR")
        return {
            a: "IN" if a in grounded else "OUT" if self.attacks_argument(grounded, a) else "UNDEC"
            for a in self.arguments
        }
