"""What the discussion page shows a reader: posts as a tree, names or none, statuses in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from argumentation import Label, grounded_labelling
from argumentation.schemes import SCHEMES, Scheme
from discussions.models import Discussion, Post
from discussions.standing import (
    MAX_CAMPS,
    Standing,
    Status,
    ThesisStatus,
    ancestors,
    smallest_flip,
)
from discussions.teams import may_post, objection_sides, team_of

__all__ = [
    "PostRow",
    "author_names",
    "flip_for_post",
    "page_context",
    "scheme_of",
    "language",
]

# Components a critical question's Toulmin element maps onto (argumentation.attack_types).
QUESTION_COMPONENT = {
    "claim": "claim",
    "grounds": "premise",
    "groundsBacking": "premise",
    "warrantBacking": "premise",
    "warrant": "inference",
}
ATTACK_FOR = {"claim": "rebut", "premise": "undermine", "inference": "undercut"}
FLIP_CANDIDATES = 12
FLIP_SIZE = 3


def language() -> str:
    return "es" if (get_language() or "en").startswith("es") else "en"


def scheme_of(code: str) -> Scheme | None:
    return next((s for s in SCHEMES if s.code == code), None)


def author_names(*, discussion: Discussion, posts: list[Post], viewer: Any, moderator: bool):
    """Post id -> the author's name as this reader sees it ("you", a name, or "Classmate N")."""
    numbers: dict[int, int] = {}
    names = {}
    for post in posts:
        numbers.setdefault(post.author_id, len(numbers) + 1)
        if post.author_id == viewer.pk:
            names[post.pk] = _("you")
        elif discussion.anonymous and not moderator:
            names[post.pk] = _("Classmate %(n)d") % {"n": numbers[post.author_id]}
        else:
            names[post.pk] = post.author.get_full_name() or post.author.username
    return names


STATUS_WORDS = {
    Status.STANDS: ("in", "stands"),
    Status.DEFEATED: ("out", "is defeated"),
    Status.CONTESTED: ("undec", "is contested"),
}


def status_words(status: Status) -> str:
    return {
        Status.STANDS: _("stands"),
        Status.DEFEATED: _("is defeated"),
        Status.CONTESTED: _("is contested"),
    }[status]


def thesis_words(status: ThesisStatus) -> str:
    return {
        ThesisStatus.STANDS: _("The thesis stands: an argument for it stands."),
        ThesisStatus.FALLS: _("The thesis falls: an argument against it stands."),
        ThesisStatus.CONTESTED: _(
            "The thesis is contested: coherent positions for and against it both hold up."
        ),
        ThesisStatus.OPEN: _("The thesis is open: no argument for or against it stands yet."),
    }[status]


@dataclass
class PostRow:
    post: Post
    author: str
    mine: bool
    shown: bool  # its text is shown to this reader
    status: Status | None
    status_text: str
    badge: str
    grounded: str
    credulous: bool
    skeptical: bool
    crux: bool
    target_part: str
    scheme_name: str
    questions: list[dict[str, str]] = field(default_factory=list)
    # The side an objection to it would support, and whether this reader's team may post it.
    objection_side: str = ""
    may_object: bool = True
    children: list[PostRow] = field(default_factory=list)


def _target_part(post: Post) -> str:
    if post.component == "premise" and post.premise_index is not None:
        return _("premise %(n)d") % {"n": post.premise_index + 1}
    if post.component == "claim":
        return _("the claim")
    if post.component == "inference":
        return _("the step from the premises to the claim")
    return ""


def _questions(post: Post) -> list[dict[str, str]]:
    scheme = scheme_of(post.scheme)
    if scheme is None:
        return []
    lang = language()
    return [
        {"code": q.code, "question": q.question[lang], "component": QUESTION_COMPONENT[q.target]}
        for q in scheme.questions
    ]


def page_context(
    *, discussion: Discussion, posts: list[Post], standing: Standing, viewer: Any, moderator: bool
) -> dict[str, Any]:
    names = author_names(discussion=discussion, posts=posts, viewer=viewer, moderator=moderator)
    lang = language()
    # The "Object to this" links only where the team rule would accept the objection
    # (discussions.services.create_post still checks).
    team = team_of(discussion=discussion, student=viewer)
    sides = objection_sides(posts)
    rows: dict[int, PostRow] = {}
    for post in posts:
        state = standing.posts.get(post.pk)
        mine = post.author_id == viewer.pk
        scheme = scheme_of(post.scheme)
        rows[post.pk] = PostRow(
            post=post,
            author=names[post.pk],
            mine=mine,
            shown=not post.hidden or mine or moderator,
            status=state.status if state else None,
            status_text=status_words(state.status) if state else "",
            badge=STATUS_WORDS[state.status][0] if state else "",
            grounded=str(state.grounded) if state else "",
            credulous=bool(state and state.credulous),
            skeptical=bool(state and state.skeptical),
            crux=post.pk in standing.cruxes,
            target_part=_target_part(post),
            scheme_name=scheme.name[lang] if scheme else "",
            questions=_questions(post) if not post.hidden else [],
            objection_side=sides[post.pk],
            may_object=may_post(team=team, side=sides[post.pk]),
        )
    top: list[PostRow] = []
    for post in posts:
        row = rows[post.pk]
        if post.target_id is None or post.target_id not in rows:
            top.append(row)
        else:
            rows[post.target_id].children.append(row)
    return {
        "discussion": discussion,
        "rows_for": [r for r in top if r.post.side == "for"],
        "rows_against": [r for r in top if r.post.side == "against"],
        "thesis_status": standing.thesis,
        "thesis_text": thesis_words(standing.thesis),
        "cruxes": [rows[c] for c in standing.cruxes if c in rows],
        "camps": min(standing.camp_count, MAX_CAMPS),
        "camps_complete": standing.camps_complete,
        "moderator": moderator,
        "team": team,
        "post_count": sum(1 for p in posts if not p.hidden),
    }


def flip_for_post(*, standing: Standing, post_id: int) -> tuple[int, ...] | None:
    """The fewest posts whose removal would change this post's standing (None: none found)."""
    af = standing.framework
    if post_id not in af:
        return None

    def is_in(framework: Any) -> bool:
        return grounded_labelling(framework).get(post_id) == Label.IN

    candidates = ancestors(af, post_id)[:FLIP_CANDIDATES]
    return smallest_flip(af, status=is_in, candidates=candidates, max_size=FLIP_SIZE)
