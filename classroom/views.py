"""The student's classroom pages: join a class, an assignment, start, open or hand in its argument;
and for its instructors, the assignment's page as the class sees it (a preview).

Views stay thin: find the student's own object (404 for anything else),
call one service, render or redirect.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom.also_asked import also_asked, latest_by_argument
from classroom.criteria import criterion, parse_required
from classroom.forms import HandInForm, JoinForm, handable_arguments
from classroom.models import Assignment, AssignmentKind, Classroom, Submission
from classroom.presenters import assignment_row
from classroom.services import HandInRefused, JoinRefused, hand_in, join_class, start_submission
from coach.steps import label_for

__all__ = [
    "assignment_detail",
    "assignment_hand_in",
    "assignment_preview",
    "assignment_start",
    "join",
]


def _get_assignment_for_student(request: HttpRequest, assignment_id: int) -> Assignment:
    # Only a member of the class sees its assignments; anyone else gets the same 404.
    return get_object_or_404(
        Assignment.objects.filter(classroom__memberships__student=request.user),
        pk=assignment_id,
    )


def _get_assignment_for_instructor(request: HttpRequest, assignment_id: int) -> Assignment:
    # Only an instructor of the class previews its assignments; anyone else gets a 404.
    return get_object_or_404(
        Assignment.objects.filter(classroom__in=Classroom.objects.taught_by(request.user)),
        pk=assignment_id,
    )


def _required(assignment: Assignment) -> list[tuple[str, list[str]]]:
    """The criteria the assignment requires, by step, in the assignment's language."""
    return [
        (
            label_for(step, assignment.language),
            [criterion(c).label(assignment.language) for c in codes],
        )
        for step, codes in parse_required(assignment.required_criteria).items()
    ]


def _discussion_page(assignment: Assignment) -> HttpResponse | None:
    """A class discussion's work is on its own page (no argument to start or hand in)."""
    if assignment.kind != AssignmentKind.DISCUSSION:
        return None
    discussion = getattr(assignment, "discussion", None)  # the reverse side of a one-to-one
    if discussion is None:
        raise Http404
    return redirect("discussions:detail", discussion.pk)


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":  # a link or a typed address: the form, not a 405
        return render(request, "classroom/join.html")
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
    if (elsewhere := _discussion_page(assignment)) is not None:
        return elsewhere
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
    return render(
        request,
        "classroom/assignment_detail.html",
        {
            "row": assignment_row(assignment, student=request.user, submission=submission),
            "assignment": assignment,
            "required": _required(assignment),
            "asked": asked,
            # Arguments begun from "Start an argument" that could be handed in here.
            "hand_in_form": (
                HandInForm(student=request.user)
                if submission is None and handable_arguments(request.user).exists()
                else None
            ),
        },
    )


@login_required
@require_GET
def assignment_preview(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """The assignment's page as a student of the class sees it before starting, for its
    instructors: what to argue, the due date, the coach's rules, what else is asked.
    Nothing on it starts or hands in work (that is the students'); the work is read on
    the class's grid."""
    assignment = _get_assignment_for_instructor(request, assignment_id)
    if (elsewhere := _discussion_page(assignment)) is not None:
        return elsewhere
    return render(
        request,
        "classroom/assignment_detail.html",
        {
            "row": assignment_row(assignment, student=None, submission=None),  # the class's
            "assignment": assignment,
            "required": _required(assignment),
            "asked": [],
            "hand_in_form": None,
            "preview": True,
        },
    )


@login_required
@require_POST
def assignment_start(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = _get_assignment_for_student(request, assignment_id)
    if (elsewhere := _discussion_page(assignment)) is not None:
        return elsewhere
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


@login_required
@require_POST
def assignment_hand_in(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = _get_assignment_for_student(request, assignment_id)
    if (elsewhere := _discussion_page(assignment)) is not None:
        return elsewhere
    form = HandInForm(request.POST, student=request.user)
    if not form.is_valid():
        # Someone else's argument, one already handed in, or no choice at all.
        messages.error(request, _("Choose one of your arguments that is not handed in yet."))
        return redirect("classroom:assignment_detail", assignment_id=assignment.pk)
    try:
        submission = hand_in(
            assignment=assignment, student=request.user, argument=form.cleaned_data["argument"]
        )
    except HandInRefused as refused:
        messages.error(request, str(refused))
        return redirect("classroom:assignment_detail", assignment_id=assignment.pk)
    messages.success(
        request,
        _("Handed in: your instructor now sees this argument for “%(title)s”.")
        % {"title": assignment.title},
    )
    return redirect("coach:argument_detail", argument_id=submission.argument_id)
