"""What would change it, at a class's full scale (pure).

``discussions.standing.smallest_flip`` tries sets of up to three posts, and
for each builds the framework without them and labels it: at 1,000 posts the
thesis's answer took 20 s, since a framework there has tens of thousands of
attacks (the arguments for and against all rebut each other). These
functions give the same answers (a Hypothesis property test checks it) from
the discussion's forest (``discussions.recompute``):

* the candidates, nearest first, walk the attackers as
  ``standing.ancestors`` does (by natural order) but stop once enough are
  found, with the arguments of each side sorted once;
* each tried set is labelled on the linear-size gadget graph of
  ``discussions.recompute`` by ``argumentation.grounded.closure_codes`` with
  the set ``removed`` (a removed post counted as an attacker that is gone:
  Nofal, Atkinson & Dunne's counters start lower): a millisecond or two at
  5,000 posts, instead of building a framework.

A post's status is read from the grounded labels alone. The thesis's has four
values (``standing.thesis_of``): the grounded labels decide *stands*, *falls*
and, when every argument left is defeated, *open*; when some argument is left
undecided, it is *contested*: in a discussion's shape (a forest of objections
plus the bipartite rebuts, coherent: ``discussions.recompute``) an argument the
grounded labelling leaves undecided is IN in some stable labelling. Sketch: label
it IN, the other side OUT (it attacks them all), and each objection to it OUT
(a rebut is attacked back by it; an undermine or undercut left undecided has an
undecided objection of its own, labelled IN the same way, down the tree); the
rest of the forest keeps a stable labelling, which exists since every cycle is
even (Dung 1995). The property tests compare every answer with the SAT-based
``standing.thesis_flip`` and check the claim itself against ``compute_standing``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from itertools import combinations

from argumentation.cruxes import natural_key
from argumentation.grounded import IN, UNDEC, closure_codes
from discussions.recompute import Forest, gadget_graph
from discussions.standing import PostNode, Side, ThesisFlip, ThesisStatus

__all__ = ["post_flip", "thesis_flip"]


class _Walk:
    """Attackers in the real framework, by natural order (``standing.ancestors``' order)."""

    def __init__(self, forest: Forest) -> None:
        self.forest = forest
        ranked = sorted(range(len(forest.nodes)), key=lambda i: natural_key(forest.nodes[i].id))
        self.rank = [0] * len(ranked)
        for position, i in enumerate(ranked):
            self.rank[i] = position
        self.side_order = {
            1: sorted(forest.pro, key=self.rank.__getitem__),
            -1: sorted(forest.con, key=self.rank.__getitem__),
        }

    def attackers(self, i: int) -> list[int]:
        forest = self.forest
        found = list(forest.children[i])
        if forest.parent[i] >= 0 and forest.context[i]:
            found.append(forest.parent[i])
        found.sort(key=self.rank.__getitem__)
        if forest.side[i]:
            other = self.side_order[-forest.side[i]]
            found = sorted(found + other, key=self.rank.__getitem__) if found else other
        return found

    def ancestors(self, i: int) -> Iterator[int]:
        """``standing.ancestors``, lazily: stop reading once enough are found."""
        seen = {i}
        queue = deque([i])
        while queue:
            for attacker in self.attackers(queue.popleft()):
                if attacker not in seen:
                    seen.add(attacker)
                    yield attacker
                    queue.append(attacker)


def _smallest(
    candidates: Sequence[int], status: Callable[[Sequence[int]], Hashable], max_size: int
) -> tuple[int, ...] | None:
    """``standing.smallest_flip``'s search: by size, then in the candidates' order."""
    before = status(())
    for size in range(1, max_size + 1):
        for removed in combinations(candidates, size):
            if status(removed) != before:
                return removed
    return None


def post_flip(
    nodes: Sequence[PostNode], post_id: Hashable, *, max_candidates: int = 12, max_size: int = 3
) -> tuple[Hashable, ...] | None:
    """``presenters.flip_for_post``: the fewest of the post's nearest attackers whose
    removal changes whether it stands (None: no such set)."""
    forest = Forest(tuple(nodes))
    index = {node.id: i for i, node in enumerate(forest.nodes)}
    if post_id not in index or not forest.ok:
        return None
    target = index[post_id]
    walk = _Walk(forest)
    candidates = []
    for i in walk.ancestors(target):
        candidates.append(i)
        if len(candidates) == max_candidates:
            break
    graph = gadget_graph(forest)
    found = _smallest(
        candidates, lambda removed: closure_codes(graph, removed=removed)[target] == IN, max_size
    )
    return None if found is None else tuple(forest.nodes[i].id for i in found)


def thesis_flip(
    nodes: Sequence[PostNode],
    *,
    sides: Mapping[Hashable, str],
    max_candidates: int = 12,
    max_size: int = 3,
) -> ThesisFlip | None:
    """``standing.thesis_flip``: the fewest posts whose removal changes the thesis's status
    among the four, and what it becomes; objections reaching the arguments first, then the
    arguments. The grounded labels on the gadget graph decide all four (module docstring:
    an argument left undecided makes it *contested*, every one defeated *open*)."""
    forest = Forest(tuple(nodes))
    if not forest.ok:
        return None
    top = [i for i, node in enumerate(forest.nodes) if node.id in sides]
    is_top = set(top)
    walk = _Walk(forest)
    candidates: dict[int, None] = {}
    for a in top:
        if len(candidates) >= max_candidates:
            break
        for x in walk.ancestors(a):
            if x not in is_top:
                candidates.setdefault(x)
                if len(candidates) >= max_candidates:
                    break
    for a in top:
        candidates.setdefault(a)
    graph = gadget_graph(forest)
    pro = [i for i in top if sides[forest.nodes[i].id] == Side.FOR]
    con = [i for i in top if sides[forest.nodes[i].id] == Side.AGAINST]

    def status(removed: Sequence[int]) -> ThesisStatus:
        codes = closure_codes(graph, removed=removed)
        gone = set(removed)
        if any(codes[i] == IN for i in pro if i not in gone):
            return ThesisStatus.STANDS
        if any(codes[i] == IN for i in con if i not in gone):
            return ThesisStatus.FALLS
        left = [i for i in top if i not in gone]
        if any(codes[i] == IN for i in left):  # an argument with no side, unattacked
            return ThesisStatus.CONTESTED
        # An undecided argument is in some preferred extension here (module docstring).
        return ThesisStatus.CONTESTED if any(codes[i] == UNDEC for i in left) else ThesisStatus.OPEN

    found = _smallest(list(candidates)[:max_candidates], status, max_size)
    if found is None:
        return None
    return ThesisFlip(tuple(forest.nodes[i].id for i in found), status(found))
