"""The whole discussion as an argument map to download: Argdown and AIF.

Who may download is who may see the page (the same 404 otherwise). Each file
carries what the reader's page shows: names as the page shows them (in an
anonymous discussion a classmate is "Classmate N", except to the instructor),
and no hidden post (as in the ICCMA file). The formats are
``discussions.graph_exports``; docs/exports.md says how the posts map to them.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.http import require_GET

from discussions.graph_exports import MapPost, aif_document, argdown_document
from discussions.models import Discussion
from discussions.presenters import author_names, language
from discussions.services import can_moderate, discussions_for, standing_of, visible_posts

__all__ = ["discussion_aif", "discussion_argdown", "map_posts"]


def _coach_elements(post) -> dict[str, str]:
    """An argument brought from the coach: its warrant, qualifier and rebuttal."""
    origin = getattr(post, "coach_origin", None)  # discussions.post_extras.CoachOrigin
    if origin is None:
        return {}
    return {"warrant": origin.warrant, "qualifier": origin.qualifier, "rebuttal": origin.rebuttal}


def map_posts(*, discussion: Discussion, viewer, moderator: bool) -> list[MapPost]:
    """The posts in the semantics (not hidden), with names and statuses as the reader sees them."""
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    names = author_names(discussion=discussion, posts=posts, viewer=viewer, moderator=moderator)
    return [
        MapPost(
            **_coach_elements(post),
            id=post.pk,
            claim=post.claim,
            premises=tuple(post.premises),
            side=post.side if post.target_id is None else "",
            target=post.target_id,
            attack_type=post.attack_type,
            premise_index=post.premise_index,
            author=str(names[post.pk]),
            status=standing.posts[post.pk].status.value if post.pk in standing.posts else "",
        )
        for post in posts
        if not post.hidden
    ]


def _download(text: str, *, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _discussion_and_posts(request: HttpRequest, discussion_id: int):
    discussion = get_object_or_404(
        discussions_for(request.user).select_related("classroom"), pk=discussion_id
    )
    moderator = can_moderate(user=request.user, discussion=discussion)
    return discussion, map_posts(discussion=discussion, viewer=request.user, moderator=moderator)


@login_required
@require_GET
def discussion_argdown(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion, posts = _discussion_and_posts(request, discussion_id)
    text = argdown_document(
        title=discussion.title, thesis=discussion.thesis, posts=posts, language=language()
    )
    return _download(
        text,
        content_type="text/plain; charset=utf-8",
        filename=f"discussion-{discussion.pk}.argdown",
    )


@login_required
@require_GET
def discussion_aif(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion, posts = _discussion_and_posts(request, discussion_id)
    stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M:%S")
    text = aif_document(thesis=discussion.thesis, posts=posts, timestamp=stamp)
    return _download(
        text, content_type="application/json", filename=f"discussion-{discussion.pk}.aif.json"
    )
