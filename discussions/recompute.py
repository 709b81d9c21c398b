"""What stands in a class discussion, in time linear in its posts (pure).

``discussions.standing.compute_standing`` builds the whole Dung framework and
asks a SAT solver about every contested post. At a class's full scale (300
students, 5,000 posts) that took seconds: every argument for the thesis and
every one against rebut each other, so the framework alone has a third of a
million attacks, and the contested posts make one giant strongly connected
component, which the SCC decomposition cannot split (a new argument reaches
every other one). This module computes the same answer from the shape a
discussion always has:

* the posts form a **forest**: an objection answers one earlier post (its
  parent), attacks it, and is attacked back by it when it is a rebut;
* the top-level arguments for and against form a **complete bipartite**
  graph of rebuts.

Every cycle of attacks is then even (a cycle entering an objection's subtree
must come back the same way; the arguments for and against are two sides of a
bipartite graph), so the framework is **coherent**: its preferred extensions
are exactly its stable ones (Dung 1995, Theorem 33 and the corollary on
frameworks without odd-length cycles). A stable labelling is two-valued:
IN exactly when every attacker is OUT. So:

* **preferred acceptance and the number of camps** come from counting stable
  labellings by dynamic programming over the forest, bottom-up (the labellings
  of a post's subtree for each label of the post and of its parent) and
  top-down (those of everything outside it), as for trees in Dunne's (2007)
  tractable classes. The arguments for and against meet in one place: some
  argument of a side is IN, or none is. Counts are capped at ``MAX_CAMPS + 1``,
  which keeps every product small and loses nothing the page says;
* the **grounded labelling** comes from the library's linear-time solver on an
  equivalent framework where the bipartite rebuts go through a four-node
  gadget (each side's arguments attack "none of this side stands", which
  attacks "some argument of this side stands", which attacks every argument of
  the other side): the posts' labels are those of the real framework in every
  complete labelling, with ~n attacks instead of ~n²/36;
* **attack degrees** (for ranking the cruxes) are counted off the forest.

The result is a ``Standing`` equal to ``compute_standing``'s (a Hypothesis
property test checks it); its framework and the listed camps stay lazy and
are built only when an export asks for them. A set of nodes that is not such
a forest (never from the database) falls back on ``compute_standing``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

from argumentation import Label
from argumentation.cruxes import natural_key
from argumentation.framework import IndexedGraph
from argumentation.grounded import IN, UNDEC, grounded_codes
from discussions.standing import (
    MAX_CAMPS,
    MAX_CRUXES,
    PostNode,
    PostStanding,
    Side,
    Standing,
    Status,
    compute_standing,
    thesis_status,
)

__all__ = ["Forest", "children_outside", "fast_standing", "gadget_graph", "post_below", "tables"]

CAP = MAX_CAMPS + 1
_LABELS = {UNDEC: Label.UNDEC, IN: Label.IN, 2: Label.OUT}
_STATUSES = {UNDEC: Status.CONTESTED, IN: Status.STANDS, 2: Status.DEFEATED}


def _cap(value: int) -> int:
    return value if value < CAP else CAP


class Forest:
    """The discussion's shape over indices 0..n-1 (see the module docstring)."""

    def __init__(self, nodes: tuple[PostNode, ...]) -> None:
        self.nodes = nodes
        n = len(nodes)
        index = {node.id: i for i, node in enumerate(nodes)}
        self.ok = len(index) == n
        self.parent = [
            index.get(node.target, -1) if node.target is not None else -1 for node in nodes
        ]
        self.children: list[list[int]] = [[] for _ in range(n)]
        for i, p in enumerate(self.parent):
            if p >= 0:
                self.children[p].append(i)
        self.pro = [i for i, nd in enumerate(nodes) if nd.target is None and nd.side == Side.FOR]
        self.con = [
            i for i, nd in enumerate(nodes) if nd.target is None and nd.side == Side.AGAINST
        ]
        clique = bool(self.pro) and bool(self.con)
        self.side = [0] * n  # 1: for, -1: against, in the bipartite rebuts; 0: not
        if clique:
            for i in self.pro:
                self.side[i] = 1
            for i in self.con:
                self.side[i] = -1
        # Attacked by its context: a rebut by its parent, a top-level argument by the other side.
        self.context = [
            (p >= 0 and nodes[i].attack_type == "rebut") or self.side[i] != 0
            for i, p in enumerate(self.parent)
        ]
        self.roots = [i for i, p in enumerate(self.parent) if p < 0]
        self.order = self._preorder()
        self.ok = self.ok and len(self.order) == n  # a cycle of targets is not a forest

    def _preorder(self) -> list[int]:
        order: list[int] = []
        stack = list(reversed(self.roots))
        while stack:
            i = stack.pop()
            order.append(i)
            stack.extend(self.children[i])
        return order

    def degrees(self) -> list[int]:
        """Attacks received plus made by each post in the real framework: its objections
        (and its parent back, for a rebut), its parent (and its rebuttals back), and for
        an argument every argument of the other side, both ways."""
        degree = [len(kids) for kids in self.children]
        for i, p in enumerate(self.parent):
            if p >= 0:
                degree[i] += 1  # it attacks its parent
                if self.context[i]:  # a rebut: the parent attacks it back
                    degree[i] += 1
                    degree[p] += 1
        if self.pro and self.con:  # the bipartite rebuts
            for side, other in ((self.pro, len(self.con)), (self.con, len(self.pro))):
                for i in side:
                    degree[i] += 2 * other
        return degree


def gadget_graph(forest: Forest) -> IndexedGraph:
    """The framework with the bipartite gadget (module docstring), on index lists built
    directly: posts are 0..n-1 as in ``forest``, the four gadget nodes after them."""
    n = len(forest.nodes)
    size = n + 4 if any(forest.side) else n
    attackers: list[list[int]] = [[] for _ in range(size)]
    attacked: list[list[int]] = [[] for _ in range(size)]
    for i, p in enumerate(forest.parent):
        if p >= 0:
            attackers[p].append(i)
            attacked[i].append(p)
            if forest.context[i]:
                attackers[i].append(p)
                attacked[p].append(i)
    if size > n:
        for none, mine, theirs in ((n, forest.pro, forest.con), (n + 2, forest.con, forest.pro)):
            some = none + 1  # "none of my side stands" attacks "some of my side stands"
            attackers[none].extend(mine)
            for i in mine:
                attacked[i].append(none)
            attackers[some].append(none)
            attacked[none].append(some)
            attacked[some].extend(theirs)
            for j in theirs:
                attackers[j].append(some)
    return IndexedGraph(n=size, attackers=attackers, attacked=attacked)


def _combine(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """(ways with none IN, ways with some IN) of two independent groups together."""
    return _cap(a[0] * b[0]), _cap(a[0] * b[1] + a[1] * (b[0] + b[1]))


def _all_but_one(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """For each k, ``_combine`` of every pair but the k-th (prefix and suffix, no division;
    ``_combine`` inlined, ``min`` spelt out: this runs for every post with two objections
    or more, and is most of the time at 5,000 posts)."""
    n = len(pairs)
    suffix: list[tuple[int, int]] = [(1, 0)] * (n + 1)
    none, some = 1, 0
    for k in range(n - 1, -1, -1):
        z, w = pairs[k]
        none, some = z * none, z * some + w * (none + some)
        none = none if none < CAP else CAP
        some = some if some < CAP else CAP
        suffix[k] = (none, some)
    result = []
    none, some = 1, 0
    for k in range(n):
        b0, b1 = suffix[k + 1]
        a0, a1 = none * b0, none * b1 + some * (b0 + b1)
        result.append((a0 if a0 < CAP else CAP, a1 if a1 < CAP else CAP))
        z, w = pairs[k]
        none, some = none * z, none * w + some * (z + w)
        none = none if none < CAP else CAP
        some = some if some < CAP else CAP
    return result


def _fold(pairs: Iterable[tuple[int, int]]) -> tuple[int, int]:
    total = (1, 0)
    for pair in pairs:
        total = _combine(total, pair)
    return total


def _count(forest: Forest) -> tuple[list[bool], list[bool], int]:
    """Credulous and skeptical acceptance of every post under stable (= preferred)
    semantics, and the number of stable labellings (capped at CAP)."""
    below, outside, total = tables(forest)
    credulous, skeptical = [], []
    for b, o in zip(below, outside, strict=True):
        credulous.append(o[1] * b[1] > 0)
        skeptical.append(o[0] * b[0] + o[2] * b[2] == 0)
    return credulous, skeptical, total


def tables(forest: Forest) -> tuple[list, list, int]:
    """``_count``'s two tables and the number of stable labellings: ``below[i]``, the
    labellings of i's subtree, ``outside[i]``, those of everything else, each for the
    labels of i and of its context (``discussions.growing`` keeps them up to date as
    posts come, with the same ``post_below`` and ``children_outside``)."""
    n = len(forest.nodes)
    children, context = forest.children, forest.context
    # below[i] = (x=OUT | pl OUT, x=IN | pl OUT, x=OUT | pl IN, x=IN | pl IN): labellings of
    # i's subtree with i = x and its context (parent, or the other side) labelled pl.
    below: list[tuple[int, int, int, int]] = [(0, 0, 0, 0)] * n
    for i in reversed(forest.order):
        below[i] = post_below(children[i], context[i], below)
    # outside[i] = (x=OUT|pl OUT, x=IN|pl OUT, x=OUT|pl IN): labellings of everything
    # outside i's subtree with i = x and its context labelled pl (x=IN|pl IN has none:
    # an IN post attacks its parent, or the whole other side). Tuples, made once each.
    outside: list[tuple[int, int, int]] = [(0, 0, 0)] * n
    total = 1
    for i in forest.roots:
        if not forest.side[i]:
            outside[i] = (1, 1, 0)
            total = _cap(total * (below[i][0] + below[i][1]))
    if any(forest.side):
        total = _cap(total * _sides(forest, below, outside))
    for v in forest.order:
        kids = children[v]
        if kids:
            values = children_outside(outside[v], context[v], kids, below)
            for c, value in zip(kids, values, strict=True):
                outside[c] = value
    return below, outside, total


def post_below(kids: list[int], attacked: bool, below: list) -> tuple[int, int, int, int]:
    """A post's ``below`` counts from its children's (``kids``); ``attacked`` is whether
    it has a context. Inlined arithmetic: this runs once per post, every recomputation."""
    none, some, all_out = 1, 0, 1  # children given the post OUT (none IN / some IN); given IN
    for c in kids:
        z, w, out_by_in, _w = below[c]
        some = some * (z + w) + none * w
        none *= z
        all_out *= out_by_in
        if some > CAP:
            some = CAP
        if none > CAP:
            none = CAP
        if all_out > CAP:
            all_out = CAP
    if attacked:
        anything = none + some
        return (some, all_out, anything if anything < CAP else CAP, 0)
    return (some, all_out, some, all_out)


def children_outside(
    v_outside: tuple[int, int, int], attacked: bool, kids: list[int], below: list
) -> list[tuple[int, int, int]]:
    """The ``outside`` counts of v's children (in ``kids``' order) from v's own and its
    children's ``below`` counts; ``attacked`` is whether v has a context."""
    # Ways outside v's subtree: v OUT with its context OUT, then IN; v IN.
    v_out, v_in, v_out_by_in = v_outside
    if len(kids) == 1:
        others_out, others_in = [(1, 0)], [1]
    else:
        others_out = _all_but_one([(below[c][0], below[c][1]) for c in kids])
        others_in = [p[0] for p in _all_but_one([(below[c][2], 0) for c in kids])]
    values = []
    for k in range(len(kids)):
        none, some = others_out[k]
        anything = none + some
        # c IN: v OUT whatever else; c OUT: v OUT needs a sibling (or its context) IN,
        # or v IN with every sibling OUT.
        c_in = (v_out + v_out_by_in) * anything
        c_out_v_out = v_out * some + v_out_by_in * (anything if attacked else some)
        c_out_v_in = v_in * others_in[k]
        values.append(
            (
                c_out_v_out if c_out_v_out < CAP else CAP,
                c_in if c_in < CAP else CAP,
                c_out_v_in if c_out_v_in < CAP else CAP,
            )
        )
    return values


def _sides(forest: Forest, below: list, outside: list) -> int:
    """The arguments for and against (each side's ``context`` is the other side): fill in
    their ``outside`` counts; return the number of labellings of their subtrees."""
    pro, con = forest.pro, forest.con

    def free(side: list[int]) -> list[tuple[int, int]]:  # no argument of the other side IN
        return [(below[i][0], below[i][1]) for i in side]

    def beaten(side: list[int]) -> list[int]:  # some argument of the other side IN
        product = 1
        for i in side:
            product = _cap(product * below[i][2])
        return product

    total = 0
    for mine, theirs in ((pro, con), (con, pro)):
        pairs = free(mine)
        others = _all_but_one(pairs)
        their_free = _fold(free(theirs))
        their_beaten = beaten(theirs)
        all_beaten_but = _all_but_one([(below[i][2], 0) for i in mine])
        for k, i in enumerate(mine):
            none, some = others[k]
            outside[i] = (
                # i OUT, my side wins through another; or nobody wins.
                _cap(some * their_beaten + none * their_free[0]),
                # i IN: my side wins, theirs is all OUT (and attacked).
                _cap((none + some) * their_beaten),
                # i OUT, their side wins (mine all OUT, attacked).
                _cap(all_beaten_but[k][0] * their_free[1]),
            )
        total = _cap(total + _fold(pairs)[1] * their_beaten)  # my side wins
    nobody = _fold(free(pro))[0] * _fold(free(con))[0]
    return _cap(total + nobody)


def _cruxes(forest: Forest, credulous: list[bool], skeptical: list[bool]) -> tuple:
    """The disputed posts (credulously, not skeptically accepted), highest attack degree
    first, then by natural order: ``compute_standing``'s order, the names compared only
    among the few whose degree could make the top."""
    disputed = [i for i, c in enumerate(credulous) if c and not skeptical[i]]
    degree = forest.degrees()
    if len(disputed) > MAX_CRUXES:
        floor = sorted((degree[i] for i in disputed), reverse=True)[MAX_CRUXES - 1]
        disputed = [i for i in disputed if degree[i] >= floor]
    nodes = forest.nodes
    disputed.sort(key=lambda i: (-degree[i], natural_key(nodes[i].id)))
    return tuple(nodes[i].id for i in disputed[:MAX_CRUXES])


def fast_standing(nodes: Iterable[PostNode]) -> Standing:
    """``compute_standing(nodes)``, in linear time (module docstring)."""
    nodes = tuple(nodes)
    forest = Forest(nodes)
    if not forest.ok:
        return compute_standing(nodes)
    codes = grounded_codes(gadget_graph(forest))
    credulous, skeptical, camps = _count(forest)
    labels: dict[Hashable, Label] = {}
    posts = {}
    kinds: dict[tuple[int, bool, bool], PostStanding] = {}  # a dozen kinds: made once each
    for i, node in enumerate(nodes):
        code = codes[i]
        labels[node.id] = _LABELS[code]
        kind = (code, credulous[i], skeptical[i])
        state = kinds.get(kind)
        if state is None:
            state = kinds[kind] = PostStanding(_STATUSES[code], _LABELS[code], *kind[1:])
        posts[node.id] = state
    sides = {node.id: node.side for node in nodes if node.target is None}
    return Standing(
        nodes=nodes,
        posts=posts,
        thesis=thesis_status(
            labels, sides, credulous=[nodes[i].id for i in range(len(nodes)) if credulous[i]]
        ),
        camp_count=camps,
        cruxes=_cruxes(forest, credulous, skeptical),
    )
