"""Which LTI roles make someone an instructor here (pure).

Role URIs: LTI 1.3 core, appendix A.2 "LIS vocabulary for context roles"
(https://www.imsglobal.org/spec/lti/v1p3/#lis-vocabulary-for-context-roles).
A role is either a full URI (`...membership#Instructor`), a sub-role
(`...membership/Instructor#TeachingAssistant`) or, deprecated but still
sent by some platforms, the short name (`Instructor`).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TEACHING_ROLES", "is_instructor", "is_learner"]

MEMBERSHIP = "http://purl.imsglobal.org/vocab/lis/v2/membership"
# Context roles that teach the course: Instructor, Administrator, ContentDeveloper.
TEACHING_ROLES = frozenset({"Instructor", "Administrator", "ContentDeveloper"})


def _context_role(role: str) -> str | None:
    """The principal context role named by `role`, or None if not a context role."""
    if role.startswith(MEMBERSHIP + "#"):
        return role.removeprefix(MEMBERSHIP + "#")
    if role.startswith(MEMBERSHIP + "/"):
        # A sub-role: ".../membership/Instructor#TeachingAssistant" -> "Instructor".
        return role.removeprefix(MEMBERSHIP + "/").split("#", 1)[0]
    if "/" not in role and "#" not in role:
        return role
    return None


def is_instructor(roles: Iterable[str]) -> bool:
    """True if any role teaches the course (Instructor, Administrator, ContentDeveloper)."""
    return any(_context_role(str(role)) in TEACHING_ROLES for role in roles)


def is_learner(roles: Iterable[str]) -> bool:
    """True if any role is Learner (or one of its sub-roles)."""
    return any(_context_role(str(role)) == "Learner" for role in roles)
