"""What stands in a discussion, kept up to date as posts are added (pure).

``discussions.recompute.fast_standing`` is linear in the posts, but a live
page's follower asks again after every post, and at a class's full scale
(5,000 posts) a whole recomputation is tens of milliseconds of Python that
every other request of the process waits behind. A new post changes little:

* the **grounded labels** come from the library's linear-time counter
  propagation (``argumentation.grounded.grounded_codes``) on the gadget graph
  of ``discussions.recompute``, which is *kept* (a post adds one node and one
  or two attacks, an argument its two links to the gadget) instead of rebuilt;
* the **counts of stable labellings** (``recompute.tables``: ``below``, the
  labellings of a post's subtree, and ``outside``, those of everything else)
  are updated by change propagation: ``below`` on the path from the new post
  up, as long as a value changes (the counts are capped, so most paths stop
  early); ``outside`` downwards from there, only into the subtrees whose
  ``outside`` changed. Credulous and skeptical acceptance are re-read where
  either moved. It is the same dynamic programming over the forest (Dunne
  2007's tractable classes), re-evaluated where an input changed and no
  further (change propagation, as in Acar's self-adjusting computation);
* the **cruxes** are re-ranked from the kept acceptance and attack degrees
  (as ``recompute._cruxes`` ranks them).

A case it does not update (the first argument of a side, which starts or
joins the bipartite rebuts; an objection to a post it does not hold, such as
a hidden one) rebuilds from scratch. The result equals ``fast_standing``'s
(``tests/discussions/test_growing.py`` checks it after every post of random
discussions, with Hypothesis).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from heapq import nlargest
from itertools import compress

from argumentation.cruxes import natural_key
from argumentation.framework import IndexedGraph
from argumentation.grounded import IN, grounded_codes
from discussions.recompute import (
    _LABELS,
    _STATUSES,
    CAP,
    Forest,
    _sides,
    children_outside,
    fast_standing,
    post_below,
    tables,
)
from discussions.standing import (
    MAX_CRUXES,
    PostNode,
    PostStanding,
    Side,
    Standing,
    ThesisStatus,
)

__all__ = ["Growing"]

#: The gadget's four nodes (recompute.gadget_graph) come first in the kept graph, so a
#: new post takes the next index without moving them: post i is node i + G.
G = 4
# The gadget's nodes: for each side, "none of this side stands" and "some of it stands".
NONE_FOR, SOME_FOR, NONE_AGAINST, SOME_AGAINST = range(G)


class Growing:
    """A discussion's standing that later posts can be added to (module docstring):
    ``standing`` is the current ``Standing``."""

    def __init__(self, nodes: Iterable[PostNode]) -> None:
        self._build(tuple(nodes))

    # --- from scratch ------------------------------------------------------------------

    def _build(self, nodes: tuple[PostNode, ...]) -> None:
        self.forest = forest = Forest(nodes)
        self.index = {node.id: i for i, node in enumerate(nodes)}
        if not forest.ok:  # not a discussion's shape (never from the database): no updates
            self.standing = fast_standing(nodes)
            return
        self.gadget = bool(forest.pro) and bool(forest.con)
        n = len(nodes)
        self.attackers: list[list[int]] = [[] for _ in range(n + G)]
        self.attacked: list[list[int]] = [[] for _ in range(n + G)]
        for i, p in enumerate(forest.parent):
            if p >= 0:
                self._attack(i, p, both=forest.context[i])
        if self.gadget:
            for i in forest.pro:
                self._link_argument(i, Side.FOR)
            for i in forest.con:
                self._link_argument(i, Side.AGAINST)
        self.degree = _base_degrees(forest)
        self.below, self.outside, _total = tables(forest)
        self.free = self._free()
        self.sides = _sides(forest, self.below, list(self.outside)) if self.gadget else 1
        self.credulous = [o[1] * b[1] > 0 for b, o in zip(self.below, self.outside, strict=True)]
        self.skeptical = [
            o[0] * b[0] + o[2] * b[2] == 0 for b, o in zip(self.below, self.outside, strict=True)
        ]
        self.codes = grounded_codes(self._graph())
        self.kinds: dict[tuple[int, bool, bool], PostStanding] = {}
        self.posts = {node.id: self._state(i) for i, node in enumerate(nodes)}
        self.standing = self._standing()

    def _attack(self, i: int, p: int, *, both: bool) -> None:
        """Post i attacks post p (and p attacks i back: a rebut)."""
        self.attackers[p + G].append(i + G)
        self.attacked[i + G].append(p + G)
        if both:
            self.attackers[i + G].append(p + G)
            self.attacked[p + G].append(i + G)

    def _link_argument(self, i: int, side: str) -> None:
        """An argument attacks its side's "none", the other side's "some" attacks it."""
        none, some = (NONE_FOR, SOME_AGAINST) if side == Side.FOR else (NONE_AGAINST, SOME_FOR)
        if not self.attacked[none]:  # "none" attacks "some" of its own side, once
            self.attacked[none].append(none + 1)
            self.attackers[none + 1].append(none)
        self.attacked[i + G].append(none)
        self.attackers[none].append(i + G)
        self.attacked[some].append(i + G)
        self.attackers[i + G].append(some)

    def _graph(self) -> IndexedGraph:
        return IndexedGraph(n=len(self.attackers), attackers=self.attackers, attacked=self.attacked)

    def _free(self) -> int:
        """Labellings of the subtrees of the roots outside the bipartite rebuts."""
        forest, below, total = self.forest, self.below, 1
        for i in forest.roots:
            if not forest.side[i]:
                total = _cap(total * (below[i][0] + below[i][1]))
        return total

    def _state(self, i: int) -> PostStanding:
        kind = (self.codes[i + G], self.credulous[i], self.skeptical[i])
        state = self.kinds.get(kind)
        if state is None:
            code = kind[0]
            state = self.kinds[kind] = PostStanding(_STATUSES[code], _LABELS[code], *kind[1:])
        return state

    def _standing(self) -> Standing:
        forest, codes = self.forest, self.codes
        if any(codes[i + G] == IN for i in forest.pro):
            thesis = ThesisStatus.STANDS
        elif any(codes[i + G] == IN for i in forest.con):
            thesis = ThesisStatus.FALLS
        elif any(self.credulous[i] for i in forest.roots if forest.nodes[i].target is None):
            thesis = ThesisStatus.CONTESTED
        else:
            thesis = ThesisStatus.OPEN
        return Standing(
            nodes=forest.nodes,
            posts=dict(self.posts),
            thesis=thesis,
            camp_count=_cap(self.free * self.sides),
            cruxes=self._cruxes(),
        )

    def _cruxes(self) -> tuple[Hashable, ...]:
        """``recompute._cruxes`` with the degrees kept: the disputed posts (credulously,
        not skeptically accepted), highest attack degree first, then by natural order."""
        forest, credulous, skeptical = self.forest, self.credulous, self.skeptical
        pro, con = len(forest.pro), len(forest.con)
        # An argument's rebuts of the other side's arguments, both ways (recompute.degrees).
        extra = {1: 2 * con, -1: 2 * pro} if self.gadget else {1: 0, -1: 0}
        side, base = forest.side, self.degree
        degree = {
            i: base[i] + extra[side[i]] if side[i] else base[i]
            for i in compress(range(len(credulous)), credulous)
            if not skeptical[i]
        }
        if len(degree) > MAX_CRUXES:
            floor = nlargest(MAX_CRUXES, degree.values())[-1]
            degree = {i: d for i, d in degree.items() if d >= floor}
        nodes = forest.nodes
        ranked = sorted(degree, key=lambda i: (-degree[i], natural_key(nodes[i].id)))
        return tuple(nodes[i].id for i in ranked[:MAX_CRUXES])

    # --- adding posts ------------------------------------------------------------------

    def add(self, new: Iterable[PostNode]) -> dict[Hashable, str]:
        """Add ``new``, posts later than every post held, in their order; the posts held
        before whose status changed, with the new status."""
        new = tuple(new)
        if not new:
            return {}
        if not self.forest.ok or not self._addable(new):
            before = self.standing.posts
            self._build(self.forest.nodes + new)
            return {
                pid: str(state.status)
                for pid, state in self.standing.posts.items()
                if pid in before and before[pid].status != state.status
            }
        dirty: set[int] = set()
        for node in new:
            self._add_one(node, dirty)
        old = self.codes
        self.codes = codes = grounded_codes(self._graph())
        moved = _differing(old, codes, start=G, stop=len(old))
        below, outside = self.below, self.outside
        nodes = self.forest.nodes
        for i in dirty:
            b, o = below[i], outside[i]
            self.credulous[i] = o[1] * b[1] > 0
            self.skeptical[i] = o[0] * b[0] + o[2] * b[2] == 0
        held = len(old) - G
        changed = {}
        for i in dirty.union(moved, range(held, len(nodes))):
            state = self._state(i)
            pid = nodes[i].id
            if i < held and self.posts[pid].status != state.status:
                changed[pid] = str(state.status)
            self.posts[pid] = state
        self.standing = self._standing()
        return changed

    def _addable(self, new: tuple[PostNode, ...]) -> bool:
        known = set(self.index)
        for node in new:
            if node.id in known:
                return False
            if node.target is None:
                # Updated only when both sides already have arguments (the bipartite
                # rebuts exist): the first of a side links every argument: a rebuild.
                if node.side not in (Side.FOR, Side.AGAINST) or not self.gadget:
                    return False
            elif node.target not in known:  # an objection to a post not held (hidden)
                return False
            known.add(node.id)
        return True

    def _add_one(self, node: PostNode, dirty: set[int]) -> None:
        forest = self.forest
        i = len(forest.nodes)
        self.index[node.id] = i
        forest.nodes = forest.nodes + (node,)
        forest.children.append([])
        self.attackers.append([])
        self.attacked.append([])
        self.below.append((0, 0, 0, 0))
        self.outside.append((0, 0, 0))
        self.credulous.append(False)
        self.skeptical.append(False)
        self.degree.append(0)
        forest.order.append(i)  # a leaf after its parent: still parents before children
        if node.target is None:
            side = 1 if node.side == Side.FOR else -1
            (forest.pro if side == 1 else forest.con).append(i)
            forest.parent.append(-1)
            forest.side.append(side)
            forest.context.append(True)
            forest.roots.append(i)
            self._link_argument(i, node.side)
        else:
            p = self.index[node.target]
            rebut = node.attack_type == "rebut"
            forest.parent.append(p)
            forest.side.append(0)
            forest.context.append(rebut)
            forest.children[p].append(i)
            self._attack(i, p, both=rebut)
            self.degree[i] += 2 if rebut else 1  # it attacks p (and p it)
            self.degree[p] += 2 if rebut else 1
        self._recount(i, dirty)

    def _recount(self, x: int, dirty: set[int]) -> None:
        """The counts after post x came (a leaf): up while below changes, then down."""
        forest, below, outside = self.forest, self.below, self.outside
        parent = forest.parent
        below[x] = post_below(forest.children[x], forest.context[x], below)
        dirty.add(x)
        path, top = [x], x
        while (p := parent[top]) >= 0:
            value = post_below(forest.children[p], forest.context[p], below)
            if value == below[p]:
                break
            below[p] = value
            dirty.add(p)
            path.append(p)
            top = p
        # The posts whose children's outside counts are recomputed: the path's, top first
        # (each sets the next one's), then any whose own outside moved.
        expand = path[:0:-1]
        stack: list[int] = []
        if parent[top] >= 0:
            expand.insert(0, parent[top])
        elif forest.side[top]:  # an argument's count moved: every argument's outside may
            arguments = forest.pro + forest.con
            was = [outside[i] for i in arguments]
            self.sides = _sides(forest, below, outside)
            for i, old in zip(arguments, was, strict=True):
                if outside[i] != old:
                    dirty.add(i)
                    if i != top:
                        stack.append(i)
        else:
            outside[top] = (1, 1, 0)
            self.free = self._free()
        for v in expand:
            self._expand(v, stack, dirty)
        while stack:
            self._expand(stack.pop(), stack, dirty)

    def _expand(self, v: int, stack: list[int], dirty: set[int]) -> None:
        """The outside counts of v's children (``recompute.tables``' second loop); those
        that moved are pushed, to recompute their children's in turn."""
        forest, below, outside = self.forest, self.below, self.outside
        kids = forest.children[v]
        if not kids:
            return
        values = children_outside(outside[v], forest.context[v], kids, below)
        for c, value in zip(kids, values, strict=True):
            if value != outside[c]:
                outside[c] = value
                dirty.add(c)
                stack.append(c)


def _base_degrees(forest: Forest) -> list[int]:
    """``Forest.degrees`` without the bipartite rebuts (added when the cruxes are read)."""
    degree = [len(kids) for kids in forest.children]
    for i, p in enumerate(forest.parent):
        if p >= 0:
            degree[i] += 1
            if forest.context[i]:
                degree[i] += 1
                degree[p] += 1
    return degree


def _differing(old: bytearray, new: bytearray, *, start: int, stop: int) -> list[int]:
    """The post indices (code index - start) where two label codes differ, below ``stop``;
    compared a block at a time in C, read one by one only in a block that differs."""
    found = []
    for block in range(start, stop, 256):
        end = min(block + 256, stop)
        if old[block:end] != new[block:end]:
            found.extend(i - start for i in range(block, end) if old[i] != new[i])
    return found


def _cap(value: int) -> int:
    return value if value < CAP else CAP
