"""The student's classroom pages: join a class, an assignment, start or open its argument.

Views stay thin: find the student's own object (404 for anything else),
call one service, render or redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from classroom.also_asked import also_asked, latest_by_argument
from classroom.criteria import criterion, parse_required
from classroom.forms import JoinForm
from classroom.models import Assignment, Submission
from classroom.presenters import assignment_row
from classroom.services import JoinRefused, join_class, start_submission
from coach.steps import label_for

__all__ = ["assignment_detail", "assignment_start", "join"]


def _get_assignment_for_student(request: HttpRequest, assignment_id: int) -> Assignment:
    # Only a member of the class sees its assignments; anyone else gets the same 404.
    return get_object_or_404(
        Assignment.objects.filter(classroom__memberships__student=request.user),
        pk=assignment_id,
    )


@login_required
@require_POST
def join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.errors["code"][0])
        return redirect("dashboard")
    try:
        classroom = join_class(student=request.user, code=form.cleaned_data["code"])
    except JoinRefused as refused:
        messages.error(request, str(refused))
        return redirect("dashboard")
    messages.success(request, _("You joined %(name)s.") % {"name": classroom.name})
    return redirect("dashboard")


@login_required
@require_GET
def assignment_detail(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = _get_assignment_for_student(request, assignment_id)
    submission = (
        Submission.objects.filter(assignment=assignment, student=request.user)
        .select_related("argument")
        .first()
    )
    asked = []
    if submission is not None:
        trials, stress = latest_by_argument([submission.argument_id])
        asked = also_asked(
            assignment,
            trial=trials.get(submission.argument_id),
            stress=stress.get(submission.argument_id),
            for_student=True,
        )
    required = [
        (
            label_for(step, assignment.language),
            [criterion(c).label(assignment.language) for c in codes],
        )
        for step, codes in parse_required(assignment.required_criteria).items()
    ]
    return render(
        request,
        "classroom/assignment_detail.html",
        {
            "row": assignment_row(assignment, student=request.user, submission=submission),
            "assignment": assignment,
            "required": required,
            "asked": asked,
        },
    )


@login_required
@require_POST
def assignment_start(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = _get_assignment_for_student(request, assignment_id)
    submission = Submission.objects.filter(assignment=assignment, student=request.user).first()
    if submission is None:
        if assignment.is_closed_for(request.user):
            messages.error(
                request,
                _(
                    "This assignment is past its due date, so it cannot be started now. "
                    "Ask your instructor for an extension."
                ),
            )
            return redirect("classroom:assignment_detail", assignment_id=assignment.pk)
        submission = start_submission(assignment=assignment, student=request.user)
    return redirect("coach:argument_detail", argument_id=submission.argument_id)
