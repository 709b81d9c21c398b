"""discussions.teams.objection_sides (a whole page at once, no query) says what
supported_side (one target, from the database) says, for every post of any thread."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from discussions.models import Discussion, Post
from discussions.teams import objection_sides, supported_side

pytestmark = pytest.mark.django_db


@st.composite
def threads(draw: Any) -> list[tuple[str, int | None]]:
    """Each post: its side (an argument: "for", "against" or none) or the earlier post it
    answers (an objection)."""
    posts: list[tuple[str, int | None]] = []
    for _ in range(draw(st.integers(1, 9))):
        if not posts or draw(st.booleans()):
            posts.append((draw(st.sampled_from(["for", "against", ""])), None))
        else:
            posts.append(("", draw(st.integers(0, len(posts) - 1))))
    return posts


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(threads())
def test_it_says_what_supported_side_says_for_every_post(
    classroom: Any, teacher: Any, student: Any, thread: list
) -> None:
    discussion = Discussion.objects.create(
        classroom=classroom, title="T", thesis="A thesis.", created_by=teacher
    )
    made: list[Post] = []
    for side, target in thread:
        made.append(
            Post.objects.create(
                discussion=discussion,
                author=student,
                kind="argument" if target is None else "objection",
                side=side,
                claim="c",
                target=None if target is None else made[target],
                attack_type="" if target is None else "rebut",
                component="" if target is None else "claim",
            )
        )
    sides = objection_sides(made)
    assert sides == {p.pk: supported_side(discussion=discussion, target=p) for p in made}
