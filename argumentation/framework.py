"""An immutable Dung argumentation framework (Dung 1995).

Arguments are any hashable ids (ints from ICCMA files, strings from debates).
Internally each argument gets an index 0..n-1 in the given order, and the
attack relation is kept as two integer adjacency lists (attackers of each
argument, arguments each one attacks) so that the solvers never hash ids in
their inner loops.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass

__all__ = ["ArgumentationFramework", "IndexedGraph"]


@dataclass(frozen=True, slots=True, eq=False)
class IndexedGraph:
    """The attack graph over argument indices 0..n-1.

    ``attackers[i]`` lists the indices attacking i and ``attacked[i]`` the
    indices i attacks. The lists are shared, not copied: solvers must treat
    them as read-only.
    """

    n: int
    attackers: list[list[int]]
    attacked: list[list[int]]


class ArgumentationFramework:
    """A finite set of arguments and an attack relation over them.

    ``arguments`` keeps the given order with duplicates dropped; ``attacks``
    is a frozenset of ``(attacker, attacked)`` pairs that may only mention
    known arguments (``ValueError`` otherwise). Self-attacks are allowed.
    Two frameworks are equal when they have the same arguments (in any order)
    and the same attacks.
    """

    __slots__ = ("_arguments", "_attacks", "_index", "_graph", "_hash")

    def __init__(
        self,
        arguments: Iterable[Hashable],
        attacks: Iterable[tuple[Hashable, Hashable]] = (),
    ) -> None:
        self._arguments: tuple[Hashable, ...] = tuple(dict.fromkeys(arguments))
        index = {argument: i for i, argument in enumerate(self._arguments)}
        self._index: dict[Hashable, int] = index
        self._attacks: frozenset[tuple[Hashable, Hashable]] = frozenset(attacks)
        n = len(self._arguments)
        attackers: list[list[int]] = [[] for _ in range(n)]
        attacked: list[list[int]] = [[] for _ in range(n)]
        try:
            for source, target in self._attacks:
                i = index[source]
                j = index[target]
                attackers[j].append(i)
                attacked[i].append(j)
        except KeyError as error:
            raise ValueError(f"attack mentions unknown argument {error.args[0]!r}") from None
        except (TypeError, ValueError):
            raise ValueError("attacks must be (attacker, attacked) pairs") from None
        self._graph = IndexedGraph(n=n, attackers=attackers, attacked=attacked)
        self._hash: int | None = None

    @property
    def arguments(self) -> tuple[Hashable, ...]:
        """All arguments, in the order first given."""
        return self._arguments

    @property
    def attacks(self) -> frozenset[tuple[Hashable, Hashable]]:
        """All attacks as ``(attacker, attacked)`` pairs."""
        return self._attacks

    @property
    def graph(self) -> IndexedGraph:
        """The integer adjacency view used by the solvers (read-only)."""
        return self._graph

    def index(self, argument: Hashable) -> int:
        """Position of ``argument`` in :attr:`arguments`; ``ValueError`` if unknown."""
        try:
            return self._index[argument]
        except (KeyError, TypeError):
            raise ValueError(f"unknown argument {argument!r}") from None

    def attackers(self, argument: Hashable) -> frozenset[Hashable]:
        """The arguments that attack ``argument``."""
        names = self._arguments
        return frozenset(names[i] for i in self._graph.attackers[self.index(argument)])

    def attacked(self, argument: Hashable) -> frozenset[Hashable]:
        """The arguments that ``argument`` attacks."""
        names = self._arguments
        return frozenset(names[i] for i in self._graph.attacked[self.index(argument)])

    def restricted(self, subset: Iterable[Hashable]) -> ArgumentationFramework:
        """The sub-framework on ``subset`` with the attacks among its members.

        Arguments keep their relative order; unknown arguments raise ``ValueError``.
        """
        keep = set(subset)
        unknown = [argument for argument in keep if argument not in self._index]
        if unknown:
            raise ValueError(f"unknown argument {unknown[0]!r}")
        return ArgumentationFramework(
            (argument for argument in self._arguments if argument in keep),
            ((a, b) for a, b in self._attacks if a in keep and b in keep),
        )

    def __len__(self) -> int:
        return len(self._arguments)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._arguments)

    def __contains__(self, argument: object) -> bool:
        try:
            return argument in self._index
        except TypeError:
            return False

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArgumentationFramework):
            return NotImplemented
        return self._attacks == other._attacks and self._index.keys() == other._index.keys()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((frozenset(self._arguments), self._attacks))
        return self._hash

    def __repr__(self) -> str:
        return (
            f"ArgumentationFramework({len(self._arguments)} arguments, "
            f"{len(self._attacks)} attacks)"
        )
