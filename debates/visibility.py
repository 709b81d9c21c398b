"""Who may see which debate: one rule for every page, export and stream.

A signed-in user sees their own debates and the demo debates
(``Debate.objects.for_user``); staff (instructors) see every debate, as they
do in the admin. Anonymous visitors see none: pages ask them to sign in.
"""

from __future__ import annotations

from debates.models import Debate, DebateQuerySet

__all__ = ["visible_debates"]


def visible_debates(user) -> DebateQuerySet:
    """The debates ``user`` may open."""
    if getattr(user, "is_staff", False) and getattr(user, "is_active", False):
        return Debate.objects.all()
    return Debate.objects.for_user(user)
