"""What stands in a class discussion, computed from Dung's semantics (pure).

A discussion is one argument graph. Its posts are the arguments of a Dung
(1995) abstract framework and its attacks are read off the posts:

- an **argument** is for or against the discussion's thesis. Read as ASPIC+
  (Modgil & Prakken 2014), an argument for concludes the thesis and one
  against concludes its negation, so every top-level argument for and every
  one against *rebut each other* (an attack both ways);
- an **objection** attacks the post it answers: a *rebut* (of the claim)
  attacks both ways, as in the debates (``debates.graph``), an *undermine*
  (of a premise) or an *undercut* (of the inference) one way. An objection is
  itself a post that others may object to.

A post that is hidden by the instructor is simply not in the framework.

Each post is labelled from the grounded labelling (Dung 1995; Modgil &
Caminada 2009) and preferred semantics (Dung 1995; computed by the SAT-based
solver of ``argumentation``, SCC-decomposed after Baroni, Giacomin & Guida
2005): **stands** (in the grounded extension: every reasonable reader accepts
it), **is defeated** (attacked by a post that stands) or **is contested**
(neither: undecided; ``credulous`` says whether some preferred extension, a
coherent position, accepts it).

The thesis **stands** when some argument for it stands, **falls** when some
argument against it stands (the two exclude each other: they rebut each
other), is **contested** when an argument of either side is accepted by some
preferred extension, and is **open** otherwise (nothing argued yet, or every
argument defeated).

**Cruxes** are the posts some preferred extension accepts and another does
not (credulously, not skeptically accepted), ranked by attack degree (``argumentation.cruxes``),
the most contested first.

**What would change it** (:func:`smallest_flip`): the smallest set of posts
whose removal changes a post's status (or the thesis's, among all four:
:func:`thesis_flip`, which also says what it would become), found by brute force
over the posts that can reach it through attacks (only they can change its
grounded label), nearest first, at most ``max_size`` of them. Exponential in
``max_size``, fine at a class's scale.

Pure: no Django; imports only ``argumentation``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from itertools import combinations, islice
from typing import NamedTuple

from argumentation import (
    ArgumentationFramework,
    Label,
    grounded_labelling,
    preferred_extensions,
    skeptical_acceptance,
)
from argumentation.cruxes import attack_degree, natural_key, order_camps
from argumentation.sat_encoding import Oracle, admissible_clauses, grow, local_problem

__all__ = [
    "MAX_CAMPS",
    "MAX_CRUXES",
    "PostNode",
    "PostStanding",
    "Side",
    "Standing",
    "Status",
    "ThesisFlip",
    "ThesisStatus",
    "ancestors",
    "build_framework",
    "compute_standing",
    "smallest_flip",
    "thesis_flip",
    "thesis_of",
    "thesis_status",
]

MAX_CRUXES = 3
MAX_CAMPS = 20


class Side(StrEnum):
    FOR = "for"
    AGAINST = "against"


class Status(StrEnum):
    STANDS = "stands"
    DEFEATED = "defeated"
    CONTESTED = "contested"


class ThesisStatus(StrEnum):
    STANDS = "stands"
    FALLS = "falls"
    CONTESTED = "contested"
    OPEN = "open"


@dataclass(frozen=True, slots=True)
class PostNode:
    """What the semantics need of a post: an argument has a side, an objection a target."""

    id: Hashable
    side: str = ""  # "for" | "against" for an argument; "" for an objection
    target: Hashable | None = None  # the post an objection answers
    attack_type: str = ""  # rebut | undermine | undercut (objections only)


@dataclass(frozen=True, slots=True)
class PostStanding:
    status: Status
    grounded: Label
    credulous: bool  # in some preferred extension
    skeptical: bool  # in every preferred extension


@dataclass(frozen=True)
class Standing:
    """What stands. The framework and the listed camps are built when first read: the
    page needs neither (``camp_count`` says how many camps there are), and at a class's
    full scale building the framework alone costs more than computing the labels."""

    nodes: tuple[PostNode, ...]
    posts: Mapping[Hashable, PostStanding]
    thesis: ThesisStatus
    camp_count: int  # the number of preferred extensions, at most MAX_CAMPS + 1
    cruxes: tuple[Hashable, ...]

    @property
    def camps_complete(self) -> bool:
        """False: there are more than MAX_CAMPS preferred extensions."""
        return self.camp_count <= MAX_CAMPS

    @cached_property
    def framework(self) -> ArgumentationFramework:
        return build_framework(self.nodes)

    @cached_property
    def preferred(self) -> tuple[tuple[Hashable, ...], ...]:
        """The first MAX_CAMPS preferred extensions found, largest first."""
        return tuple(_first_camps(self.framework)[:MAX_CAMPS])


def build_framework(nodes: Iterable[PostNode]) -> ArgumentationFramework:
    """The Dung framework of the visible posts (see the module docstring for the attacks)."""
    nodes = list(nodes)
    ids = {node.id for node in nodes}
    attacks: set[tuple[Hashable, Hashable]] = set()
    pro = [n.id for n in nodes if n.target is None and n.side == Side.FOR]
    con = [n.id for n in nodes if n.target is None and n.side == Side.AGAINST]
    for a in pro:
        for b in con:
            attacks.add((a, b))
            attacks.add((b, a))
    for node in nodes:
        if node.target is None or node.target not in ids:
            continue  # an objection to a hidden post attacks nothing that counts
        attacks.add((node.id, node.target))
        if node.attack_type == "rebut":
            attacks.add((node.target, node.id))
    return ArgumentationFramework([n.id for n in nodes], attacks)


def thesis_status(
    labels: Mapping[Hashable, Label],
    sides: Mapping[Hashable, str],
    *,
    credulous: Iterable[Hashable] = (),
) -> ThesisStatus:
    """The thesis's status from the top-level arguments' grounded labels (``sides``: id -> side)."""
    if any(labels.get(i) == Label.IN and side == Side.FOR for i, side in sides.items()):
        return ThesisStatus.STANDS
    if any(labels.get(i) == Label.IN and side == Side.AGAINST for i, side in sides.items()):
        return ThesisStatus.FALLS
    if any(i in sides for i in credulous):
        return ThesisStatus.CONTESTED
    return ThesisStatus.OPEN


def compute_standing(nodes: Iterable[PostNode]) -> Standing:
    """Label every post and the thesis; the cruxes, most contested first.

    Preferred acceptance is decided without listing the preferred extensions
    (each unanswered rebut is a two-cycle, so a discussion has up to 2^k of
    them): credulous acceptance of every contested post by covering
    (:func:`_covering`, one incremental SAT solver), skeptical acceptance by
    ``argumentation.skeptical_acceptance`` only for the posts every preferred
    extension found so far holds. A post the grounded labelling settles needs
    no call: IN is in every preferred extension, OUT in none. Only the first
    ``MAX_CAMPS`` extensions are listed (``camps_complete`` says whether that is
    all of them).
    """
    nodes = list(nodes)
    af = build_framework(nodes)
    labels = grounded_labelling(af)
    undecided = [a for a in af.arguments if labels[a] == Label.UNDEC]
    credulous, absent = _covering(af, undecided)
    posts = {}
    for argument in af.arguments:
        label = labels[argument]
        if label == Label.UNDEC:
            accepted = argument in credulous
            # Absent from a preferred extension found while covering: not skeptical.
            skeptical = (
                accepted
                and argument not in absent
                and skeptical_acceptance(af, argument, "PR", witness=False).accepted
            )
            posts[argument] = PostStanding(Status.CONTESTED, label, accepted, skeptical)
        else:
            accepted = label == Label.IN
            status = Status.STANDS if accepted else Status.DEFEATED
            posts[argument] = PostStanding(status, label, accepted, accepted)
    camps = _first_camps(af)
    sides = {n.id: n.side for n in nodes if n.target is None}
    disputed = [a for a, p in posts.items() if p.credulous and not p.skeptical]
    cruxes = sorted(disputed, key=lambda a: (-attack_degree(af=af, argument=a), natural_key(a)))[
        :MAX_CRUXES
    ]
    standing = Standing(
        nodes=tuple(nodes),
        posts=posts,
        thesis=thesis_status(labels, sides, credulous=[a for a, p in posts.items() if p.credulous]),
        camp_count=len(camps),
        cruxes=tuple(cruxes),
    )
    # Computed already: the cached properties' values (a frozen dataclass's own __dict__).
    standing.__dict__.update(framework=af, preferred=tuple(camps[:MAX_CAMPS]))
    return standing


def _first_camps(af: ArgumentationFramework) -> list[tuple[Hashable, ...]]:
    """At most MAX_CAMPS + 1 preferred extensions, in the enumerator's first ones, ordered."""
    return _order_camps(islice(preferred_extensions(af), MAX_CAMPS + 1))


def _order_camps(extensions: Iterable[frozenset[Hashable]]) -> list[tuple[Hashable, ...]]:
    """Largest first, then by members: ``argumentation.cruxes.order_camps``'s order, without
    its natural sort of names (three quarters of the time at 300 posts) when ids are ints."""
    camps = [list(camp) for camp in extensions]
    if not all(type(a) is int for camp in camps for a in camp):
        return order_camps(frozenset(camp) for camp in camps)
    return sorted((tuple(sorted(camp)) for camp in camps), key=lambda c: (-len(c), c))


def _covering(
    af: ArgumentationFramework, undecided: list[Hashable]
) -> tuple[set[Hashable], set[Hashable]]:
    """Which undecided arguments some preferred extension accepts, with one incremental
    SAT solver: ask for an admissible set holding at least one argument not yet covered,
    grow it to a maximal one (a preferred extension: every admissible superset holds
    that argument too), cover its members, repeat until none is left (Dung 1995: every
    admissible set lies in a preferred one). Also returns the undecided arguments missing
    from some preferred extension found: those are not skeptically accepted."""
    if not undecided:
        return set(), set()
    everything = list(range(len(af.arguments)))
    problem = local_problem(af.graph, nodes=everything)
    m = problem.size
    xs = range(1, m + 1)
    index = {a: af.index(a) for a in undecided}
    uncovered = set(undecided)
    absent: set[Hashable] = set()
    with Oracle(admissible_clauses(problem), num_vars=2 * m, prefer=xs) as oracle:
        while uncovered:
            guard = oracle.fresh()
            oracle.add([-guard, *(index[a] + 1 for a in uncovered)])
            found = oracle.solve([guard]) and grow(oracle, variables=xs, assumptions=[guard])
            oracle.add([-guard])
            if not found:
                break
            members = {v - 1 for v in found}
            uncovered -= {a for a in uncovered if index[a] in members}
            absent |= {a for a in undecided if index[a] not in members}
    return set(undecided) - uncovered, absent


def ancestors(af: ArgumentationFramework, argument: Hashable) -> list[Hashable]:
    """The arguments with an attack path to ``argument`` (itself excluded), nearest first."""
    seen = {argument}
    order: list[Hashable] = []
    queue = deque([argument])
    while queue:
        current = queue.popleft()
        for attacker in sorted(af.attackers(current), key=natural_key):
            if attacker not in seen:
                seen.add(attacker)
                order.append(attacker)
                queue.append(attacker)
    return order


def smallest_flip(
    af: ArgumentationFramework,
    *,
    status: Callable[[ArgumentationFramework], Hashable],
    candidates: Sequence[Hashable],
    max_size: int = 3,
) -> tuple[Hashable, ...] | None:
    """The smallest set of ``candidates`` whose removal changes ``status``; None if none does.

    Sets are tried by size, then in the candidates' order (nearest first), so
    the answer is the first smallest one. ``status`` reads a framework (say the
    grounded label of one post) and is called once per tried set.
    """
    before = status(af)
    for size in range(1, max_size + 1):
        for removed in combinations(candidates, size):
            gone = set(removed)
            if status(af.restricted(a for a in af.arguments if a not in gone)) != before:
                return tuple(removed)
    return None


class ThesisFlip(NamedTuple):
    """What would change the thesis: the posts to remove, and the status it would then have."""

    posts: tuple[Hashable, ...]
    becomes: ThesisStatus


def thesis_of(framework: ArgumentationFramework, sides: Mapping[Hashable, str]) -> ThesisStatus:
    """The thesis's status among all four (the table of ``docs/discussions.md``), exactly:
    the grounded labels decide *stands* and *falls*; otherwise it is *contested* when some
    preferred extension accepts a top-level argument (asked of the covering SAT solver,
    only for the top-level arguments the grounded labelling leaves undecided) and *open*
    when none does."""
    labels = grounded_labelling(framework)
    decided = thesis_status(labels, sides)
    if decided in (ThesisStatus.STANDS, ThesisStatus.FALLS):
        return decided
    accepted = [a for a in framework.arguments if a in sides and labels[a] == Label.IN]
    undecided = [a for a in framework.arguments if a in sides and labels[a] == Label.UNDEC]
    if not accepted and undecided:
        accepted = list(_covering(framework, undecided)[0])
    return thesis_status(labels, sides, credulous=accepted)


def thesis_flip(
    af: ArgumentationFramework,
    *,
    sides: Mapping[Hashable, str],
    max_candidates: int = 12,
    max_size: int = 3,
) -> ThesisFlip | None:
    """The fewest posts whose removal changes the thesis's status among the four (stands /
    falls / is contested / is open: :func:`thesis_of`), with the status it would have;
    candidates are the top-level arguments and what reaches them, nearest first.

    All four, not only what the grounded labels say: a contested thesis that one removal
    leaves open (its last credulously accepted argument gone, or a decided side's
    objection) changes status, and the page says so."""
    top = [a for a in af.arguments if a in sides]
    # Objections first: "answer this objection" is more useful than "withdraw that argument".
    reaching = [x for a in top for x in ancestors(af, a) if x not in sides]
    candidates = list(dict.fromkeys([*reaching, *top]))
    found = smallest_flip(
        af,
        status=lambda framework: thesis_of(framework, sides),
        candidates=candidates[:max_candidates],
        max_size=max_size,
    )
    if found is None:
        return None
    gone = set(found)
    after = af.restricted(a for a in af.arguments if a not in gone)
    return ThesisFlip(found, thesis_of(after, sides))
