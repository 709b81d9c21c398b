"""Class discussions: who may see one, posting (the type-component rule, the rate), moderation."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from argumentation.attack_types import MismatchCode, attack_mismatch
from argumentation.schemes import SCHEMES
from classroom.models import Classroom
from discussions import wakeups
from discussions.grading import ensure_submission
from discussions.models import Discussion, Post, PostKind
from discussions.recompute import fast_standing
from discussions.standing import PostNode, Standing
from discussions.teams import supported_side, team_of, team_refusal
from limits import rates

__all__ = [
    "POST_RATE",
    "PostRefused",
    "can_moderate",
    "create_post",
    "discussions_for",
    "fingerprint",
    "hide_post",
    "nodes_of",
    "standing_of",
    "standing_of_nodes",
    "visible_posts",
]

# Posts per student: a quick exchange fits, a flood does not.
POST_RATE = (10, 300)


class PostRefused(Exception):
    """A post that was not saved; the message is a plain sentence for the student."""


def discussions_for(user: Any) -> QuerySet[Discussion]:
    """The discussions of the classes ``user`` is a member of or teaches."""
    if not getattr(user, "is_authenticated", False):
        return Discussion.objects.none()
    return Discussion.objects.filter(
        Q(classroom__memberships__student=user) | Q(classroom__in=Classroom.objects.taught_by(user))
    ).distinct()


def can_moderate(*, user: Any, discussion: Discussion) -> bool:
    return Classroom.objects.taught_by(user).filter(pk=discussion.classroom_id).exists()


def fingerprint(*, discussion: Discussion) -> str:
    """Changes whenever what the page shows could: a post added, hidden or shown; a lock."""
    seen = discussion.posts.aggregate(
        n=Count("id"), last=Max("id"), hidden=Count("id", filter=Q(hidden=True))
    )
    open_now = discussion.is_open()
    return f"{seen['n']}.{seen['last'] or 0}.{seen['hidden']}.{int(open_now)}"


def visible_posts(*, discussion: Discussion) -> list[Post]:
    # A post's coach origin and AI check (discussions.post_extras) come in the same query.
    return list(discussion.posts.select_related("author", "coach_origin", "ai_check"))


def nodes_of(posts: list[Post]) -> list[PostNode]:
    """The posts the semantics count: hidden ones are left out."""
    return [
        PostNode(id=p.pk, side=p.side, target=p.target_id, attack_type=p.attack_type)
        for p in posts
        if not p.hidden
    ]


def standing_of(posts: list[Post]) -> Standing:
    """What stands; computed once per shape of the discussion in this process (the nodes are
    the key, so a new, hidden or shown post is a new key: nothing goes stale)."""
    return _standing(tuple(nodes_of(posts)))


def standing_of_nodes(nodes: tuple[PostNode, ...]) -> Standing:
    """``standing_of`` from the visible posts' nodes read without the posts (in the posts'
    order: the same key, the same cached result)."""
    return _standing(nodes)


@lru_cache(maxsize=32)
def _standing(nodes: tuple[PostNode, ...]) -> Standing:
    # Linear in the posts (discussions.recompute), equal to standing.compute_standing.
    return fast_standing(nodes)


def _clean(text: Any) -> str:
    return " ".join(str(text or "").split())


def _mismatch_sentence(code: MismatchCode) -> str:
    if code == MismatchCode.WRONG_TYPE:
        return _(
            "That type does not fit that part: a rebut denies the claim, an undermine a "
            "premise, an undercut the step from the premises to the claim."
        )
    if code == MismatchCode.NO_SUCH_COMPONENT:
        return _("That post has no such premise. Choose one of its premises.")
    return _("Choose what your objection attacks and how.")


def create_post(
    *,
    discussion: Discussion,
    author: Any,
    claim: str,
    premises: list[str],
    side: str = "",
    scheme: str = "",
    target: Post | None = None,
    attack_type: str = "",
    component: str = "",
    premise_index: int | None = None,
    question_code: str = "",
) -> Post:
    """Save an argument (no target: a side) or an objection (a target, a type, a component).

    The objection's type must fit the part it attacks
    (``argumentation.attack_types.attack_mismatch``); PostRefused otherwise, or
    when the discussion is closed, the post is not the student's team's side
    (discussions.teams) or the student posts too fast. In a graded discussion
    the first post makes the student's submission (discussions.grading).
    """
    if not discussion.is_open():
        raise PostRefused(_("This discussion is closed: no new posts."))
    claim = _clean(claim)
    premises = [_clean(p) for p in premises if _clean(p)]
    if not claim:
        raise PostRefused(_("Write your claim."))
    if target is None:
        if side not in ("for", "against"):
            raise PostRefused(_("Say whether your argument is for or against the thesis."))
        if not premises:
            raise PostRefused(_("Give at least one premise: a reason for your claim."))
        kind = PostKind.ARGUMENT
        attack_type = component = question_code = ""
        premise_index = None
    else:
        if target.discussion_id != discussion.pk or target.hidden:
            raise PostRefused(_("That post cannot be answered."))
        available = len(target.premises) if component == "premise" else 1
        index = premise_index if component == "premise" else 0
        problem = attack_mismatch(
            attack_type=attack_type,
            component=component,
            index=index if index is not None else -1,
            available=available,
        )
        if problem is not None:
            raise PostRefused(_mismatch_sentence(problem.code))
        kind, side = PostKind.OBJECTION, ""
        if component != "premise":
            premise_index = None
        if question_code and not _question_of(target.scheme, question_code):
            question_code = ""
    if scheme and scheme not in {s.code for s in SCHEMES}:
        scheme = ""
    team = team_of(discussion=discussion, student=author)
    if team:
        supports = side if target is None else supported_side(discussion=discussion, target=target)
        if (refusal := team_refusal(team=team, side=supports)) is not None:
            raise PostRefused(refusal)
    used = rates.take("discussion.post", str(author.pk), limit=POST_RATE[0], period=POST_RATE[1])
    if used is not None and not used.allowed:
        wait = (used.retry_at or 0) - rates.clock()
        raise PostRefused(
            _("You are posting very fast. Wait %(minutes)d minutes and post again.")
            % {"minutes": max(1, math.ceil(wait / 60))}
        )
    post = Post.objects.create(
        discussion=discussion,
        author=author,
        kind=kind,
        side=side,
        claim=claim,
        premises=premises,
        scheme=scheme,
        target=target,
        attack_type=attack_type,
        component=component,
        premise_index=premise_index,
        question_code=question_code,
    )
    ensure_submission(discussion=discussion, student=author)
    _tell_live_pages(discussion.pk)
    return post


def _tell_live_pages(discussion_id: int) -> None:
    """After the commit, this process's live pages of the discussion look at once (the
    others, and other processes, see it at their next poll: discussions.live)."""

    transaction.on_commit(lambda: wakeups.changed(discussion_id))


def _question_of(scheme_code: str, question_code: str) -> Any:
    for scheme in SCHEMES:
        if scheme.code == scheme_code:
            return next((q for q in scheme.questions if q.code == question_code), None)
    return None


def hide_post(*, post: Post, reason: str, hidden: bool = True) -> Post:
    """Hide a post with a reason its author sees (or show it again); the semantics leave it out."""
    reason = _clean(reason)[:300]
    if hidden and not reason:
        raise PostRefused(_("Say why the post is hidden: its author reads the reason."))
    post.hidden = hidden
    post.hidden_reason = reason if hidden else ""
    post.hidden_at = timezone.now() if hidden else None
    post.save(update_fields=["hidden", "hidden_reason", "hidden_at"])
    _tell_live_pages(post.discussion_id)
    return post
