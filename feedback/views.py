"""The student's feedback page: released comments on each element, one reply each, scores.

Only the submission's student sees it; anyone else gets the same 404.
Before release the page says so and shows nothing else.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classroom.models import Submission
from feedback.forms import ReplyForm
from feedback.models import Comment, Release
from feedback.presenters import elements, rubric_rows
from feedback.services import FeedbackRefused, reply_to_comment, total_for

__all__ = ["reply", "submission_feedback"]


def _get_submission_for_student(request: HttpRequest, submission_id: int) -> Submission:
    return get_object_or_404(
        Submission.objects.select_related("assignment__classroom", "argument"),
        pk=submission_id,
        student=request.user,
    )


def _get_comment_for_student(request: HttpRequest, comment_id: int) -> Comment:
    return get_object_or_404(
        Comment.objects.select_related("submission"),
        pk=comment_id,
        submission__student=request.user,
    )


@login_required
@require_GET
def submission_feedback(request: HttpRequest, submission_id: int) -> HttpResponse:
    submission = _get_submission_for_student(request, submission_id)
    released = Release.objects.filter(submission=submission).exists()
    context = {"submission": submission, "assignment": submission.assignment, "released": released}
    if released:
        context.update(
            elements=elements(submission),
            rows=rubric_rows(submission),
            total=total_for(submission=submission),
            form=ReplyForm(),
        )
    return render(request, "feedback/submission.html", context)


@login_required
@require_POST
def reply(request: HttpRequest, comment_id: int) -> HttpResponse:
    comment = _get_comment_for_student(request, comment_id)
    form = ReplyForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Write a reply of at most 2000 characters, then send it."))
    else:
        try:
            reply_to_comment(author=request.user, comment=comment, text=form.cleaned_data["text"])
        except FeedbackRefused as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, _("Reply sent."))
    return redirect("feedback:submission", comment.submission_id)
