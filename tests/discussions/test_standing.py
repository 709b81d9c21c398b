"""discussions.standing: known answers, and the labels and the smallest flip checked against
an independent, naive implementation of Dung's (1995) definitions on random small graphs."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation import ArgumentationFramework, Label
from discussions.standing import (
    MAX_CAMPS,
    PostNode,
    Status,
    ThesisFlip,
    ThesisStatus,
    ancestors,
    build_framework,
    compute_standing,
    smallest_flip,
    thesis_flip,
    thesis_of,
)


def _argument(i: int, side: str) -> PostNode:
    return PostNode(id=i, side=side)


def _objection(i: int, target: int, attack_type: str = "undermine") -> PostNode:
    return PostNode(id=i, target=target, attack_type=attack_type)


# --- known answers -------------------------------------------------------------------


def test_it_lets_a_lone_argument_for_carry_the_thesis() -> None:
    standing = compute_standing([_argument(1, "for")])
    assert standing.thesis == ThesisStatus.STANDS
    assert standing.posts[1].status == Status.STANDS


def test_it_calls_the_thesis_open_with_nothing_argued() -> None:
    assert compute_standing([]).thesis == ThesisStatus.OPEN


def test_it_calls_one_argument_each_way_contested_with_both_as_cruxes() -> None:
    # For and against rebut each other: a Nixon diamond, two preferred extensions.
    standing = compute_standing([_argument(1, "for"), _argument(2, "against")])
    assert standing.thesis == ThesisStatus.CONTESTED
    assert standing.posts[1].status == standing.posts[2].status == Status.CONTESTED
    assert standing.posts[1].credulous and not standing.posts[1].skeptical
    assert set(standing.cruxes) == {1, 2}
    assert len(standing.preferred) == 2


def test_it_decides_the_thesis_when_one_side_is_defeated_and_reopens_it() -> None:
    # 3 undermines 2 (against): 2 falls, so 1 (for) stands and so does the thesis.
    nodes = [_argument(1, "for"), _argument(2, "against"), _objection(3, 2)]
    standing = compute_standing(nodes)
    assert [standing.posts[i].status for i in (1, 2, 3)] == [
        Status.STANDS,
        Status.DEFEATED,
        Status.STANDS,
    ]
    assert standing.thesis == ThesisStatus.STANDS
    # 4 undercuts 3: 3 falls, 2 is reinstated and the two sides deadlock again.
    standing = compute_standing([*nodes, _objection(4, 3, "undercut")])
    assert standing.posts[3].status == Status.DEFEATED
    assert standing.posts[2].status == standing.posts[1].status == Status.CONTESTED
    assert standing.thesis == ThesisStatus.CONTESTED


def test_it_makes_a_rebut_attack_both_ways_and_an_undercut_one_way() -> None:
    af = build_framework(
        [_argument(1, "for"), _objection(2, 1, "rebut"), _objection(3, 1, "undercut")]
    )
    assert (2, 1) in af.attacks and (1, 2) in af.attacks
    assert (3, 1) in af.attacks and (1, 3) not in af.attacks


def test_it_ignores_an_objection_to_a_post_left_out() -> None:
    # The instructor hid post 1: its objection 2 attacks nothing that counts.
    af = build_framework([_objection(2, 1)])
    assert af.arguments == (2,) and not af.attacks


def test_it_finds_the_one_objection_to_answer() -> None:
    standing = compute_standing([_argument(1, "for"), _objection(2, 1), _objection(3, 1)])
    af = standing.framework

    def is_in(framework: ArgumentationFramework) -> bool:
        from argumentation import grounded_labelling

        return grounded_labelling(framework)[1] == Label.IN

    # Two unanswered objections: removing one is not enough, both are.
    assert smallest_flip(af, status=is_in, candidates=ancestors(af, 1), max_size=3) == (2, 3)
    assert smallest_flip(af, status=is_in, candidates=ancestors(af, 1), max_size=1) is None


def _contested_by_two_undermines() -> list[PostNode]:
    """An argument for, undermined twice; each undermine is rebutted back (a deadlock)."""
    return [
        _argument(1, "for"),
        _objection(2, 1),
        _objection(3, 2, "rebut"),
        _objection(4, 1),
        _objection(5, 4, "rebut"),
    ]


def test_it_finds_the_one_post_that_leaves_a_contested_thesis_open() -> None:
    # The case: removing 2 or 4 alone leaves the thesis contested, both make it
    # stand; but removing 3 alone lets the undermine 2 stand, the argument falls, and with
    # no argument left standing or in any coherent position the thesis is open.
    nodes = _contested_by_two_undermines()
    standing = compute_standing(nodes)
    assert standing.thesis == ThesisStatus.CONTESTED
    flip = thesis_flip(standing.framework, sides={1: "for"})
    assert flip == ThesisFlip((3,), ThesisStatus.OPEN)
    assert compute_standing([n for n in nodes if n.id != 3]).thesis == ThesisStatus.OPEN


def test_it_says_what_the_thesis_becomes_when_one_side_is_decided() -> None:
    # Contested (one argument each way); withdraw the argument for and the thesis falls.
    af = compute_standing([_argument(1, "for"), _argument(2, "against")]).framework
    assert thesis_flip(af, sides={1: "for", 2: "against"}) == ThesisFlip((1,), ThesisStatus.FALLS)
    # Stands (the argument against is undermined): answer the undermine and it is contested.
    nodes = [_argument(1, "for"), _argument(2, "against"), _objection(3, 2)]
    af = compute_standing(nodes).framework
    sides = {1: "for", 2: "against"}
    assert thesis_of(af, sides) == ThesisStatus.STANDS
    assert thesis_flip(af, sides=sides) == ThesisFlip((3,), ThesisStatus.CONTESTED)


def test_it_tells_a_contested_thesis_from_an_open_one_as_the_whole_standing_does() -> None:
    nodes = _contested_by_two_undermines()
    af = build_framework(nodes)
    assert thesis_of(af, {1: "for"}) == ThesisStatus.CONTESTED
    assert thesis_of(af.restricted([1, 2, 4, 5]), {1: "for"}) == ThesisStatus.OPEN
    assert thesis_of(af.restricted([2, 3, 4, 5]), {1: "for"}) == ThesisStatus.OPEN


def test_it_lists_only_the_first_camps_of_many_rebuttals() -> None:
    # Fifteen arguments, each with its own unanswered rebut: 2^15 preferred extensions.
    nodes = [_argument(i, "for") for i in range(1, 16)]
    nodes += [_objection(i + 15, i, "rebut") for i in range(1, 16)]
    standing = compute_standing(nodes)
    assert not standing.camps_complete and len(standing.preferred) == MAX_CAMPS
    assert all(p.credulous and not p.skeptical for p in standing.posts.values())
    assert standing.thesis == ThesisStatus.CONTESTED


def test_it_lists_ancestors_nearest_first() -> None:
    af = ArgumentationFramework([1, 2, 3, 4], [(2, 1), (3, 2), (4, 3)])
    assert ancestors(af, 1) == [2, 3, 4]


# --- against an independent implementation -----------------------------------------


def _naive_grounded(arguments: list[int], attacks: set[tuple[int, int]]) -> dict[int, str]:
    """Iterate Dung's characteristic function from the empty set (Dung 1995, Thm 25)."""
    attackers = {a: {x for x, y in attacks if y == a} for a in arguments}
    extension: set[int] = set()
    while True:
        beaten = {y for x, y in attacks if x in extension}
        nxt = {a for a in arguments if attackers[a] <= beaten}
        if nxt == extension:
            break
        extension = nxt
    beaten = {y for x, y in attacks if x in extension}
    return {a: "IN" if a in extension else "OUT" if a in beaten else "UNDEC" for a in arguments}


def _naive_preferred(arguments: list[int], attacks: set[tuple[int, int]]) -> list[set[int]]:
    """Maximal admissible sets by listing every subset (Dung 1995, Def. 7)."""
    attackers = {a: {x for x, y in attacks if y == a} for a in arguments}
    admissible = []
    for size in range(len(arguments) + 1):
        for subset in map(set, combinations(arguments, size)):
            beaten = {y for x, y in attacks if x in subset}
            if subset & beaten:
                continue  # not conflict-free
            if all(attackers[a] <= beaten for a in subset):
                admissible.append(subset)
    return [s for s in admissible if not any(s < t for t in admissible)]


@st.composite
def frameworks(draw: st.DrawFn) -> tuple[list[int], set[tuple[int, int]]]:
    n = draw(st.integers(1, 7))
    arguments = list(range(1, n + 1))
    pairs = [(a, b) for a in arguments for b in arguments]
    attacks = set(draw(st.lists(st.sampled_from(pairs), max_size=12)))
    return arguments, attacks


@st.composite
def discussions(draw: st.DrawFn) -> list[PostNode]:
    n = draw(st.integers(1, 8))
    nodes: list[PostNode] = []
    for i in range(1, n + 1):
        if i == 1 or draw(st.booleans()):
            nodes.append(_argument(i, draw(st.sampled_from(["for", "against"]))))
        else:
            target = draw(st.integers(1, i - 1))
            kind = draw(st.sampled_from(["rebut", "undermine", "undercut"]))
            nodes.append(_objection(i, target, kind))
    return nodes


@settings(max_examples=150, deadline=None)
@given(nodes=discussions())
def test_it_labels_every_post_as_the_naive_grounded_extension_does(nodes: list[PostNode]) -> None:
    standing = compute_standing(nodes)
    af = standing.framework
    naive = _naive_grounded(list(af.arguments), set(af.attacks))
    words = {"IN": Status.STANDS, "OUT": Status.DEFEATED, "UNDEC": Status.CONTESTED}
    assert {a: s.status for a, s in standing.posts.items()} == {
        a: words[v] for a, v in naive.items()
    }
    # Credulous and skeptical acceptance under preferred semantics, and the camps.
    preferred = _naive_preferred(list(af.arguments), set(af.attacks))
    for a, state in standing.posts.items():
        assert state.credulous == any(a in camp for camp in preferred), a
        assert state.skeptical == all(a in camp for camp in preferred), a
    assert sorted(map(sorted, standing.preferred)) == sorted(map(sorted, preferred))
    assert standing.camps_complete
    # A crux is accepted by some preferred extension, never by all.
    for crux in standing.cruxes:
        assert standing.posts[crux].credulous and not standing.posts[crux].skeptical


@settings(max_examples=100, deadline=None)
@given(data=frameworks(), target=st.integers(1, 7))
def test_it_finds_a_smallest_flip_as_exhaustive_search_does(data, target: int) -> None:
    arguments, attacks = data
    target = min(target, len(arguments))
    af = ArgumentationFramework(arguments, attacks)
    before = _naive_grounded(arguments, attacks)[target] == "IN"

    def naive_in(kept: list[int]) -> bool:
        sub = {(a, b) for a, b in attacks if a in kept and b in kept}
        return _naive_grounded(kept, sub)[target] == "IN"

    # Exhaustive: every subset of every other argument, reachable or not.
    others = [a for a in arguments if a != target]
    expected = next(
        (
            size
            for size in range(1, 4)
            for removed in combinations(others, size)
            if naive_in([a for a in arguments if a not in removed]) != before
        ),
        None,
    )

    def is_in(framework: ArgumentationFramework) -> bool:
        from argumentation import grounded_labelling

        return grounded_labelling(framework)[target] == Label.IN

    found = smallest_flip(af, status=is_in, candidates=ancestors(af, target), max_size=3)
    assert (len(found) if found else None) == expected
    if found:
        assert naive_in([a for a in arguments if a not in found]) != before
