"""Ask the AI to check one's own objection (optional, bounded; see ``discussions.ai_check``).

A plain form POST: the answer is the discussion page again, at the objection,
with the check under it (shown to its author and the instructor only).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from discussions.ai_check import CheckRefused, check_objection
from discussions.post_extras import CheckStatus
from discussions.services import discussions_for
from limits.services import LimitReached

__all__ = ["objection_check"]


@login_required
@require_POST
def objection_check(request: HttpRequest, discussion_id: int, post_id: int) -> HttpResponse:
    discussion = get_object_or_404(discussions_for(request.user), pk=discussion_id)
    post = get_object_or_404(discussion.posts.select_related("target"), pk=post_id)
    try:
        check = check_objection(post=post, user=request.user)
    except (CheckRefused, LimitReached) as refused:
        messages.error(request, str(getattr(refused, "message", refused)))
    else:
        if check.status == CheckStatus.FAILED:
            messages.error(
                request,
                _("The AI check did not finish this time. Nothing else changed: try again later."),
            )
        else:
            messages.success(request, _("Your objection is checked: the result is under it."))
    return redirect(f"{reverse('discussions:detail', args=[discussion.pk])}#post-{post.pk}")
