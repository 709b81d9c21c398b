"""A class discussion's pages: read it, post an argument or an objection, moderate, export.

Only members of the class and its instructors reach a discussion; anyone else
gets the same 404 as for a missing one. Views stay thin: find the reader's
discussion, call one service, render.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from argumentation import write_iccma23
from discussions.exports import discussion_document, iccma_names
from discussions.flips import post_flip, thesis_flip
from discussions.forms import ArgumentForm, HideForm, ObjectionForm
from discussions.models import Discussion, Post
from discussions.presenters import (
    ATTACK_FOR,
    QUESTION_COMPONENT,
    language,
    page_context,
    scheme_of,
)
from discussions.services import (
    PostRefused,
    can_moderate,
    create_post,
    discussions_for,
    fingerprint,
    hide_post,
    standing_of,
    visible_posts,
)
from discussions.teams import team_of

__all__ = [
    "discussion_detail",
    "discussion_export",
    "discussion_framework",
    "discussion_standing",
    "new_argument",
    "new_objection",
    "post_change",
    "thesis_change",
    "post_hide",
]


def _get_discussion_for_user(request: HttpRequest, discussion_id: int) -> Discussion:
    # A discussion of a class the reader is not in looks exactly like a missing one.
    return get_object_or_404(
        discussions_for(request.user).select_related("classroom"), pk=discussion_id
    )


def _team(request: HttpRequest, discussion: Discussion) -> str:
    return team_of(discussion=discussion, student=request.user)


def _get_post(discussion: Discussion, post_id: int) -> Post:
    return get_object_or_404(discussion.posts.select_related("author"), pk=post_id)


def _context(request: HttpRequest, discussion: Discussion) -> dict:
    posts = visible_posts(discussion=discussion)
    moderator = can_moderate(user=request.user, discussion=discussion)
    context = page_context(
        discussion=discussion,
        posts=posts,
        standing=standing_of(posts),
        viewer=request.user,
        moderator=moderator,
    )
    context["is_open"] = discussion.is_open()
    context["fingerprint"] = fingerprint(discussion=discussion)
    return context


def _page(request: HttpRequest, discussion: Discussion, form: ArgumentForm, status: int = 200):
    context = _context(request, discussion)
    context["form"] = form
    return render(request, "discussions/discussion.html", context, status=status)


@login_required
@require_GET
def discussion_detail(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    return _page(request, discussion, ArgumentForm(team=_team(request, discussion)))


@login_required
@require_GET
def discussion_standing(request: HttpRequest, discussion_id: int) -> HttpResponse:
    """The thesis's status and the posts: the partial a page asks for when its live
    stream says it is behind (discussions/stream.py)."""
    discussion = _get_discussion_for_user(request, discussion_id)
    if request.GET.get("v") == fingerprint(discussion=discussion):
        return HttpResponse(status=204)  # nothing changed: htmx leaves the page as it is
    return render(request, "discussions/_standing_body.html", _context(request, discussion))


@login_required
@require_POST
def new_argument(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    form = ArgumentForm(request.POST, team=_team(request, discussion))
    if not form.is_valid():
        return _page(request, discussion, form, status=400)
    try:
        post = create_post(
            discussion=discussion,
            author=request.user,
            claim=form.cleaned_data["claim"],
            premises=form.premises(),
            side=form.cleaned_data["side"],
            scheme=form.cleaned_data["scheme"] or "",
        )
    except PostRefused as refused:
        form.add_error(None, str(refused))
        return _page(request, discussion, form, status=400)
    messages.success(request, _("Your argument is posted."))
    return redirect(f"{reverse('discussions:detail', args=[discussion.pk])}#post-{post.pk}")


def _objection_initial(target: Post, question_code: str) -> dict:
    scheme = scheme_of(target.scheme)
    question = (
        next((q for q in scheme.questions if q.code == question_code), None) if scheme else None
    )
    if question is None:
        return {}
    component = QUESTION_COMPONENT[question.target]
    return {
        "component": component,
        "attack_type": ATTACK_FOR[component],
        "premise_index": 0 if component == "premise" else None,
        "claim": question.objection[language()],
        "question": question.code,
    }


@login_required
def new_objection(request: HttpRequest, discussion_id: int, post_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    target = _get_post(discussion, post_id)
    if target.hidden:
        raise Http404
    if request.method == "GET":
        initial = _objection_initial(target, request.GET.get("question", "")[:60])
        form = ObjectionForm(initial=initial, premises=len(target.premises))
        return _objection_page(request, discussion, target, form)
    if request.method != "POST":
        return HttpResponse(status=405)
    form = ObjectionForm(request.POST, premises=len(target.premises))
    if not form.is_valid():
        return _objection_page(request, discussion, target, form, status=400)
    data = form.cleaned_data
    try:
        post = create_post(
            discussion=discussion,
            author=request.user,
            claim=data["claim"],
            premises=form.premises(),
            target=target,
            attack_type=data["attack_type"],
            component=data["component"],
            premise_index=data["premise_index"],
            question_code=data["question"],
        )
    except PostRefused as refused:
        form.add_error(None, str(refused))
        return _objection_page(request, discussion, target, form, status=400)
    messages.success(request, _("Your objection is posted."))
    return redirect(f"{reverse('discussions:detail', args=[discussion.pk])}#post-{post.pk}")


def _objection_page(request, discussion, target, form, status: int = 200) -> HttpResponse:
    context = _context(request, discussion)
    names = {row.post.pk: row for row in _all_rows(context)}
    context.update(
        {
            "target": names.get(target.pk),
            "form": form,
            "premise_list": list(enumerate(target.premises, start=1)),
        }
    )
    return render(request, "discussions/objection.html", context, status=status)


def _all_rows(context: dict):
    stack = list(context["rows_for"]) + list(context["rows_against"])
    while stack:
        row = stack.pop()
        yield row
        stack.extend(row.children)


@login_required
@require_GET
def post_change(request: HttpRequest, discussion_id: int, post_id: int) -> HttpResponse:
    """What would change a post's standing: the fewest posts to answer (or to lose)."""
    discussion = _get_discussion_for_user(request, discussion_id)
    post = _get_post(discussion, post_id)
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    context = _context(request, discussion)
    rows = {row.post.pk: row for row in _all_rows(context)}
    flip = post_flip(standing.nodes, post.pk) if not post.hidden else None
    state = standing.posts.get(post.pk)
    return render(
        request,
        "discussions/_change.html",
        {
            "discussion": discussion,
            "post": post,
            "stands": bool(state and state.status == "stands"),
            "hidden": post.hidden,
            "flip": [rows[i] for i in flip or () if i in rows],
        },
    )


@login_required
@require_GET
def thesis_change(request: HttpRequest, discussion_id: int) -> HttpResponse:
    """What would change the thesis's status: the fewest posts to answer (or to lose)."""
    discussion = _get_discussion_for_user(request, discussion_id)
    posts = visible_posts(discussion=discussion)
    standing = standing_of(posts)
    sides = {p.pk: p.side for p in posts if p.target_id is None and not p.hidden}
    flip = thesis_flip(standing.nodes, sides=sides)
    rows = {row.post.pk: row for row in _all_rows(_context(request, discussion))}
    return render(
        request,
        "discussions/_thesis_change.html",
        {
            "flip": [rows[i] for i in (flip.posts if flip else ()) if i in rows],
            "becomes": flip.becomes if flip else None,
            "status": standing.thesis,
        },
    )


@login_required
@require_POST
def post_hide(request: HttpRequest, discussion_id: int, post_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    if not can_moderate(user=request.user, discussion=discussion):
        raise Http404
    post = _get_post(discussion, post_id)
    form = HideForm(request.POST)
    url = f"{reverse('discussions:detail', args=[discussion.pk])}#post-{post.pk}"
    if not form.is_valid():
        messages.error(request, _("Say why the post is hidden in at most 300 characters."))
        return redirect(url)
    try:
        hide_post(post=post, reason=form.cleaned_data["reason"], hidden=form.cleaned_data["hidden"])
    except PostRefused as refused:
        messages.error(request, str(refused))
        return redirect(url)
    messages.success(
        request, _("The post is hidden.") if post.hidden else _("The post is shown again.")
    )
    return redirect(url)


@login_required
@require_GET
def discussion_export(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    document = discussion_document(
        discussion=discussion,
        viewer=request.user,
        moderator=can_moderate(user=request.user, discussion=discussion),
    )
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="discussion-{discussion.pk}.json"'
    return response


@login_required
@require_GET
def discussion_framework(request: HttpRequest, discussion_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    standing = standing_of(visible_posts(discussion=discussion))
    text = write_iccma23(iccma_names(standing.framework))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="discussion-{discussion.pk}.af"'
    return response
