"""Who may see which debate: one rule for every page, export and stream.

A signed-in user sees their own debates and the demo debates
(``Debate.objects.for_user``). Staff status alone is not enough to see other
people's: an instructor also needs the permission to view debates
(``engine.view_debate``, the one the admin checks; superusers have every
permission), so a staff account made for another task sees only its own.
Anonymous visitors see none: pages ask them to sign in.
"""

from __future__ import annotations

from engine.models import Debate, DebateQuerySet

__all__ = ["VIEW_EVERY_DEBATE", "avisible_debates", "sees_every_debate", "visible_debates"]

VIEW_EVERY_DEBATE = "engine.view_debate"


def _instructor(user) -> bool:
    return bool(getattr(user, "is_active", False) and getattr(user, "is_staff", False))


def sees_every_debate(user) -> bool:
    return _instructor(user) and user.has_perm(VIEW_EVERY_DEBATE)


def visible_debates(user, *, every: bool | None = None) -> DebateQuerySet:
    """The debates ``user`` may open (``every``: already decided, e.g. by ``avisible_debates``)."""
    if every is None:
        every = sees_every_debate(user)
    return Debate.objects.all() if every else Debate.objects.for_user(user)


async def avisible_debates(user) -> DebateQuerySet:
    """``visible_debates`` for async views: the permission lookup may query the database."""
    every = _instructor(user) and await user.ahas_perm(VIEW_EVERY_DEBATE)
    return visible_debates(user, every=every)
