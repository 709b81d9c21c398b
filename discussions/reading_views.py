"""A discussion's shared readings: a source of its case file, read by the class on the page.

Attaching a case file to a discussion shares its sources with the class
(the instructor chose it from their own or the public ones), so a member
reads a source here even when the case file itself is private. Anyone else
gets the same 404 as for a missing discussion; a source of another case file
is a 404 too.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from casefiles.models import Source
from discussions.models import Discussion
from discussions.services import discussions_for

__all__ = ["reading"]


def _get_discussion_for_user(request: HttpRequest, discussion_id: int) -> Discussion:
    return get_object_or_404(
        discussions_for(request.user).select_related("classroom", "case_file"), pk=discussion_id
    )


@login_required
@require_GET
def reading(request: HttpRequest, discussion_id: int, source_id: int) -> HttpResponse:
    discussion = _get_discussion_for_user(request, discussion_id)
    if discussion.case_file_id is None:
        raise Http404
    source = get_object_or_404(Source, pk=source_id, case_file_id=discussion.case_file_id)
    return render(request, "discussions/reading.html", {"discussion": discussion, "source": source})
