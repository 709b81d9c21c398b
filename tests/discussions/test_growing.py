"""discussions.growing: a standing kept up to date post by post equals the one computed
from scratch (discussions.recompute) after every post, on random discussions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from discussions.growing import Growing
from discussions.recompute import Forest, fast_standing, tables
from discussions.standing import PostNode, Standing
from tests.discussions.test_recompute import _class_discussion, discussions


def _same(kept: Standing, fresh: Standing) -> None:
    assert kept.nodes == fresh.nodes
    assert kept.posts == fresh.posts
    assert kept.thesis == fresh.thesis
    assert kept.camp_count == fresh.camp_count
    assert kept.cruxes == fresh.cruxes


def _changed(before: Standing, after: Standing) -> dict:
    return {
        pid: str(state.status)
        for pid, state in after.posts.items()
        if pid in before.posts and before.posts[pid].status != state.status
    }


@settings(max_examples=300, deadline=None)
@given(nodes=discussions(max_posts=30), start=st.integers(0, 30), batch=st.integers(1, 3))
def test_it_equals_a_whole_recomputation_after_every_post(
    nodes: list[PostNode], start: int, batch: int
) -> None:
    growing = Growing(nodes[:start])
    _same(growing.standing, fast_standing(nodes[:start]))
    for end in range(start, len(nodes), batch):
        before = growing.standing
        changed = growing.add(nodes[end : end + batch])
        fresh = fast_standing(nodes[: end + batch])
        _same(growing.standing, fresh)
        assert changed == _changed(before, fresh)
        # The kept counts themselves, not only what they decide (most slips in the
        # propagation change a count without changing an acceptance).
        forest = Forest(tuple(nodes[: end + batch]))
        if forest.ok:
            below, outside, _total = tables(forest)
            assert growing.below == below
            assert growing.outside == outside


def test_it_updates_a_class_s_discussion_without_rebuilding_it() -> None:
    nodes = _class_discussion(2000, seed=3)
    growing = Growing(nodes[:1900])
    forest = growing.forest
    rnd = random.Random(5)
    extra = [
        PostNode(id=3000 + k, target=rnd.randint(1, 1900), attack_type="rebut") for k in range(20)
    ] + [PostNode(id=3100, side="for"), PostNode(id=3101, side="against")]
    for node in [*nodes[1900:], *extra]:
        growing.add([node])
    assert growing.forest is forest  # updated in place: no rebuild
    _same(growing.standing, fast_standing([*nodes, *extra]))


def test_it_rebuilds_for_the_first_argument_of_a_side_and_an_unknown_target() -> None:
    growing = Growing([PostNode(id=1, side="for"), PostNode(id=2, target=1, attack_type="rebut")])
    forest = growing.forest
    growing.add([PostNode(id=3, side="against")])  # the bipartite rebuts begin
    assert growing.forest is not forest
    forest = growing.forest
    growing.add([PostNode(id=5, target=4, attack_type="undercut")])  # 4 is hidden
    assert growing.forest is not forest
    _same(
        growing.standing,
        fast_standing(
            [
                PostNode(id=1, side="for"),
                PostNode(id=2, target=1, attack_type="rebut"),
                PostNode(id=3, side="against"),
                PostNode(id=5, target=4, attack_type="undercut"),
            ]
        ),
    )
