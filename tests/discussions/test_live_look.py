"""discussions.live's look, called directly: after the first look a follower reads only
the posts added since (discussions.growing keeps what stands), and any other change (a
post hidden while another is shown: the count of hidden posts unchanged) is a resync."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from discussions import live
from discussions.models import Discussion, Post
from discussions.services import create_post, hide_post, standing_of, visible_posts

pytestmark = pytest.mark.django_db

VARIANTS = frozenset({("en", False)})


def _argument(discussion: Discussion, author: Any, claim: str, side: str = "for") -> Post:
    return create_post(
        discussion=discussion, author=author, claim=claim, premises=["A reason."], side=side
    )


def _undermine(discussion: Discussion, author: Any, target: Post, claim: str) -> Post:
    return create_post(
        discussion=discussion,
        author=author,
        claim=claim,
        premises=["A source."],
        target=target,
        attack_type="undermine",
        component="premise",
        premise_index=0,
    )


def _fresh(discussion: Discussion) -> Any:
    return standing_of(visible_posts(discussion=discussion))


def test_it_updates_what_stands_from_the_new_posts_only(
    discussion: Discussion, student: Any, classmate: Any
) -> None:
    first = _argument(discussion, student, "Children need rest.")
    second = _argument(discussion, classmate, "Practice helps.", side="against")
    state = live._State()
    assert live._look(discussion.pk, state, VARIANTS).resync  # the first look
    growing = state.growing
    objection = _undermine(discussion, classmate, first, "They rest enough.")
    with CaptureQueriesContext(connection) as queries:
        change = live._look(discussion.pk, state, VARIANTS)
    assert not change.resync
    assert state.growing is growing  # kept, not rebuilt
    # Undermined, the argument for falls; the one against, rebutted by it alone, stands.
    assert change.statuses == {first.pk: "defeated", second.pk: "stands"}
    assert change.new_authors == {objection.pk: classmate.pk}
    assert state.growing.standing.posts == _fresh(discussion).posts
    # The new posts' places are read, not every post's: no query lists the discussion's.
    listing = [q["sql"] for q in queries if '"target_id"' in q["sql"] and "WHERE" in q["sql"]]
    assert listing and all('"id" >' in sql or '"id" IN' in sql for sql in listing), listing


def test_it_resyncs_when_a_post_is_hidden_and_another_shown_between_looks(
    discussion: Discussion, student: Any, classmate: Any
) -> None:
    first = _argument(discussion, student, "Children need rest.")
    second = _argument(discussion, classmate, "Practice helps.", side="against")
    hide_post(post=second, reason="Off topic.")
    state = live._State()
    live._look(discussion.pk, state, VARIANTS)
    hide_post(post=first, reason="Off topic.")
    hide_post(post=second, reason="", hidden=False)
    _undermine(discussion, student, second, "It does not.")
    change = live._look(discussion.pk, state, VARIANTS)
    assert change.resync
    assert state.growing.standing.posts == _fresh(discussion).posts
