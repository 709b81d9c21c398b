"""A discussion as JSON (`argue-discussion`, version 1) and its framework for ICCMA solvers.

The JSON carries what the page shows its reader: a classmate's name only
where the page shows it (never in an anonymous discussion, except to the
class's instructor), a hidden post's text only to its author and the
instructor. Schema: ``schemas/argue-discussion.v1.schema.json``.
"""

from __future__ import annotations

from typing import Any

from argumentation import ArgumentationFramework
from discussions.models import Discussion, Post
from discussions.presenters import author_names
from discussions.services import standing_of, visible_posts

__all__ = ["FORMAT", "VERSION", "discussion_document", "iccma_names"]

FORMAT = "argue-discussion"
VERSION = 1


def iccma_names(af: ArgumentationFramework) -> ArgumentationFramework:
    """The framework with each post named ``post-<id>`` (the ICCMA file's ``# name`` comments)."""
    name = {a: f"post-{a}" for a in af.arguments}
    return ArgumentationFramework(
        [name[a] for a in af.arguments], [(name[a], name[b]) for a, b in af.attacks]
    )


def _from_coach(post: Post) -> dict[str, str] | None:
    origin = getattr(post, "coach_origin", None)  # discussions.post_extras.CoachOrigin
    if origin is None:
        return None
    return {
        "warrant": origin.warrant,
        "qualifier": origin.qualifier,
        "rebuttal": origin.rebuttal,
    }


def _ai_check(post: Post) -> dict[str, Any] | None:
    check = getattr(post, "ai_check", None)  # discussions.post_extras.ObjectionCheck
    if check is None:
        return None
    return {
        "status": check.status,
        "fitsType": check.fits_type,
        "restatement": check.restatement,
        "explanation": check.explanation,
    }


def discussion_document(*, discussion: Discussion, viewer: Any, moderator: bool) -> dict[str, Any]:
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    names = author_names(discussion=discussion, posts=posts, viewer=viewer, moderator=moderator)
    items = []
    for post in posts:
        shown = not post.hidden or moderator or post.author_id == viewer.pk
        state = standing.posts.get(post.pk)
        items.append(
            {
                "id": post.pk,
                "kind": post.kind,
                "author": names[post.pk],
                "side": post.side or None,
                "target": post.target_id,
                "attackType": post.attack_type or None,
                "component": post.component or None,
                "premiseIndex": post.premise_index,
                "claim": post.claim if shown else None,
                "premises": list(post.premises) if shown else [],
                "scheme": post.scheme or None,
                "criticalQuestion": post.question_code or None,
                "hidden": post.hidden,
                "hiddenReason": post.hidden_reason if post.hidden and shown else None,
                "status": state.status.value if state else None,
                "grounded": state.grounded.value if state else None,
                "credulous": bool(state and state.credulous),
                "skeptical": bool(state and state.skeptical),
                "postedAt": post.created_at.isoformat(),
                "fromCoach": _from_coach(post) if shown else None,
                "aiCheck": _ai_check(post) if moderator or post.author_id == viewer.pk else None,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "discussion": {
            "id": discussion.pk,
            "class": discussion.classroom.name,
            "title": discussion.title,
            "thesis": discussion.thesis,
            "closesAt": discussion.due_at.isoformat() if discussion.due_at else None,
            "anonymous": discussion.anonymous,
            "locked": discussion.locked,
        },
        "thesisStatus": standing.thesis.value,
        "cruxes": list(standing.cruxes),
        "preferred": [list(camp) for camp in standing.preferred],
        "preferredComplete": standing.camps_complete,
        "attacks": sorted([a, b] for a, b in standing.framework.attacks),
        "posts": items,
    }
