"""Teams in a discussion: a student on the "for" team posts only what supports the thesis.

What a post supports: an argument, its side; an objection, the opposite of
what its target supports (an objection to an argument against the thesis
supports the thesis, an objection to that objection opposes it again). A
student with no team place, or on the free team, may post on either side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from discussions.models import Discussion, Post, Team, TeamPlace

__all__ = [
    "OTHER",
    "may_post",
    "objection_sides",
    "split_teams",
    "supported_side",
    "team_of",
    "team_refusal",
]

OTHER = {"for": "against", "against": "for"}


def team_of(*, discussion: Discussion, student: Any) -> str:
    """The student's team in this discussion: "for", "against", or "" (free)."""
    if not getattr(student, "is_authenticated", False):
        return ""
    place = TeamPlace.objects.filter(discussion=discussion, student=student).first()
    return place.team if place is not None and place.team != Team.FREE else ""


def supported_side(*, discussion: Discussion, target: Post) -> str:
    """The side an objection to `target` supports ("" when the chain is broken)."""
    links = {
        pk: (side, parent)
        for pk, side, parent in discussion.posts.values_list("id", "side", "target_id")
    }
    flips, current, seen = 0, target.pk, set()
    while current is not None and current in links and current not in seen:
        seen.add(current)
        side, parent = links[current]
        if parent is None:
            # `target` is `flips` objections below this argument; an objection to it flips once more.
            return OTHER.get(side, "") if flips % 2 == 0 else side
        flips += 1
        current = parent
    return ""


def objection_sides(posts: Iterable[Any]) -> dict[int, str]:
    """For each post (``pk``, ``side``, ``target_id``), the side an objection to it would
    support: ``supported_side`` for a whole page at once, without a query ("" when the
    chain to an argument is broken or circular, as there)."""
    by_pk = {post.pk: post for post in posts}
    supports: dict[int, str] = {}  # the side each post itself supports

    def side_of(pk: int) -> str:
        chain: list[int] = []
        seen: set[int] = set()
        current = pk
        while True:
            if current in supports:
                side = supports[current]
                break
            post = by_pk.get(current)
            if post is None or current in seen:  # broken or circular
                side = ""
                break
            if post.target_id is None:
                side = supports[current] = post.side if post.side in OTHER else ""
                break
            chain.append(current)
            seen.add(current)
            current = post.target_id
        # Walk back down: each objection supports the other side of what it objects to.
        for link in reversed(chain):
            side = supports[link] = OTHER.get(side, "")
        return supports[pk]

    return {pk: OTHER.get(side_of(pk), "") for pk in by_pk}


def may_post(*, team: str, side: str) -> bool:
    """Whether a student on `team` ("" when free) may post what supports `side`."""
    return not team or side == team


def team_refusal(*, team: str, side: str) -> str | None:
    """A plain sentence when a post on `side` is not the team's to make; None when it is."""
    if may_post(team=team, side=side):
        return None
    if team == "for":
        return _(
            "You are on the team for the thesis: post arguments for it, and objections to "
            "what argues against it."
        )
    return _(
        "You are on the team against the thesis: post arguments against it, and objections "
        "to what argues for it."
    )


def split_teams(*, discussion: Discussion, free: bool = False) -> None:
    """Every student of the class on a team: for and against alternately by username, or free."""
    students = discussion.classroom.memberships.order_by("student__username").values_list(
        "student_id", flat=True
    )
    for n, student_id in enumerate(students):
        team = Team.FREE if free else (Team.FOR if n % 2 == 0 else Team.AGAINST)
        TeamPlace.objects.update_or_create(
            discussion=discussion, student_id=student_id, defaults={"team": team}
        )
