"""discussions.recompute and discussions.flips: the linear-time answers equal the whole
framework's (discussions.standing), on random discussions with hidden posts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from discussions.flips import post_flip, thesis_flip
from discussions.presenters import flip_for_post
from discussions.recompute import fast_standing
from discussions.standing import (
    MAX_CAMPS,
    PostNode,
    Standing,
    ThesisFlip,
    ThesisStatus,
    compute_standing,
)
from discussions.standing import thesis_flip as whole_thesis_flip


@st.composite
def discussions(draw: st.DrawFn, max_posts: int = 24) -> list[PostNode]:
    """Posts as the database holds them (an objection answers an earlier post), then some
    hidden: left out, while the objections to them stay (and attack nothing)."""
    n = draw(st.integers(0, max_posts))
    nodes: list[PostNode] = []
    for i in range(1, n + 1):
        if i == 1 or draw(st.integers(0, 3)) == 0:
            side = draw(st.sampled_from(["for", "against", "for", "against", ""]))
            nodes.append(PostNode(id=i, side=side))
        else:
            target = draw(st.integers(1, i - 1))
            kind = draw(st.sampled_from(["rebut", "undermine", "undercut"]))
            nodes.append(PostNode(id=i, target=target, attack_type=kind))
    hidden = draw(st.sets(st.integers(1, max(n, 1)), max_size=3))
    return [node for node in nodes if node.id not in hidden]


def _same(fast: Standing, whole: Standing) -> None:
    assert fast.posts == whole.posts
    assert fast.thesis == whole.thesis
    assert fast.camp_count == whole.camp_count
    assert fast.camps_complete == whole.camps_complete
    assert fast.cruxes == whole.cruxes


@settings(max_examples=300, deadline=None)
@given(nodes=discussions())
def test_it_computes_what_the_whole_framework_computes(nodes: list[PostNode]) -> None:
    _same(fast_standing(nodes), compute_standing(nodes))


@settings(max_examples=80, deadline=None)
@given(nodes=discussions(max_posts=14))
def test_it_finds_the_flips_the_whole_framework_finds(nodes: list[PostNode]) -> None:
    whole = compute_standing(nodes)
    for node in nodes:
        assert post_flip(nodes, node.id) == flip_for_post(standing=whole, post_id=node.id)
    sides = {node.id: node.side for node in nodes if node.target is None}
    flip = thesis_flip(nodes, sides=sides)
    assert flip == whole_thesis_flip(whole.framework, sides=sides)
    if flip is not None:
        # The status it names is the one the page would show without those posts (all four
        # statuses, preferred acceptance included), and it differs from today's.
        left = [node for node in nodes if node.id not in set(flip.posts)]
        assert flip.becomes == compute_standing(left).thesis != whole.thesis


@settings(max_examples=150, deadline=None)
@given(nodes=discussions(max_posts=16), data=st.data())
def test_it_finds_no_smaller_thesis_flip_than_exhaustive_search(nodes, data) -> None:
    # Every single post removed, one at a time, against the whole standing's four statuses:
    # a one-post answer exists exactly when some removal changes the status.
    whole = compute_standing(nodes)
    sides = {node.id: node.side for node in nodes if node.target is None}
    flip = thesis_flip(nodes, sides=sides, max_candidates=len(nodes), max_size=1)
    singles = [
        node.id
        for node in nodes
        if compute_standing([n for n in nodes if n.id != node.id]).thesis != whole.thesis
    ]
    reaching = [i for i in singles if i in sides or _reaches(nodes, i, sides)]
    assert (flip is not None) == bool(reaching)
    if flip is not None:
        assert flip.posts[0] in reaching


@settings(max_examples=300, deadline=None)
@given(nodes=discussions())
def test_it_finds_every_undecided_argument_in_some_coherent_position(nodes) -> None:
    # What flips.thesis_flip rests on: an argument the grounded labelling leaves
    # undecided is credulously accepted (so such a thesis is contested, never open).
    whole = compute_standing(nodes)
    for node in nodes:
        if node.target is None and whole.posts[node.id].status == "contested":
            assert whole.posts[node.id].credulous


def _reaches(nodes: list[PostNode], i, sides) -> bool:
    """Whether post i has an attack path to a top-level argument (an objection's chain of
    targets ends at one, or a rebut's parent does)."""
    target = {node.id: node.target for node in nodes}
    j = i
    while target.get(j) is not None:
        j = target[j]
    return j in sides and j in target


def test_it_finds_the_one_post_that_leaves_a_contested_thesis_open() -> None:
    # The case, at the fast path: 2 and 4 undermine the argument for, each is
    # rebutted back. Removing 2 or 4 alone leaves it contested; removing 3 leaves it open.
    nodes = [
        PostNode(id=1, side="for"),
        PostNode(id=2, target=1, attack_type="undermine"),
        PostNode(id=3, target=2, attack_type="rebut"),
        PostNode(id=4, target=1, attack_type="undermine"),
        PostNode(id=5, target=4, attack_type="rebut"),
    ]
    assert fast_standing(nodes).thesis == ThesisStatus.CONTESTED
    assert thesis_flip(nodes, sides={1: "for"}) == ThesisFlip((3,), ThesisStatus.OPEN)


def _class_discussion(n: int, seed: int) -> list[PostNode]:
    rnd = random.Random(seed)
    nodes = []
    for i in range(1, n + 1):
        if i <= 2 or rnd.random() < 1 / 6:
            nodes.append(PostNode(id=i, side=rnd.choice(["for", "against"])))
        else:
            kind = rnd.choice(["rebut", "undermine", "undercut"])
            nodes.append(PostNode(id=i, target=rnd.randint(1, i - 1), attack_type=kind))
    return nodes


def test_it_agrees_on_a_discussion_of_a_class_s_size() -> None:
    # 400 posts: hundreds of contested ones in one strongly connected component.
    nodes = _class_discussion(400, seed=7)
    fast, whole = fast_standing(nodes), compute_standing(nodes)
    _same(fast, whole)
    assert sum(p.status == "contested" for p in fast.posts.values()) > 50


def test_it_builds_the_framework_and_the_camps_only_when_asked() -> None:
    nodes = [PostNode(id=1, side="for"), PostNode(id=2, side="against")]
    standing = fast_standing(nodes)
    assert "framework" not in standing.__dict__ and "preferred" not in standing.__dict__
    assert standing.framework == compute_standing(nodes).framework
    assert sorted(map(sorted, standing.preferred)) == [[1], [2]]


def test_it_counts_camps_past_the_cap_without_listing_them() -> None:
    # Fifteen arguments, each with its own unanswered rebut: 2^15 preferred extensions.
    nodes = [PostNode(id=i, side="for") for i in range(1, 16)]
    nodes += [PostNode(id=i + 15, target=i, attack_type="rebut") for i in range(1, 16)]
    standing = fast_standing(nodes)
    assert standing.camp_count == MAX_CAMPS + 1 and not standing.camps_complete
    assert "preferred" not in standing.__dict__
