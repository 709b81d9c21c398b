"""The front door: the public home page, where sign-in lands, and a student's own page.

The student's page reads the rooms (coach, trials, the debate engine's formats,
the classroom and its feedback) and writes nothing. It lives here rather than
in `config/`, which imports no product app.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from classroom.presenters import student_classes, taught_classes
from coach.models import Argument
from engine.models import Debate
from feedback.presenters import released_feedback
from home.presenters import debates_by_format
from trials.models import Trial

__all__ = ["dashboard", "home", "signed_in"]

# How many of each kind of work the student's page lists before "see all".
RECENT = 5


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    # The public page says what the product is; a signed-in user has their own page.
    if request.user.is_authenticated:
        return redirect("dashboard")
    return render(request, "home.html")


@login_required
@require_safe
def signed_in(request: HttpRequest) -> HttpResponse:
    """Where sign-in lands: staff on their classes (the admin index leads with them),
    students on their own page.

    Only the landing after sign-in: staff still reach their own page from the
    header, and the admin's "View site" still leads to the site.
    """
    return redirect("admin:index" if request.user.is_staff else "dashboard")


@login_required
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
    classes = student_classes(user)
    # An instructor's own classes come first; the student's card ("you are not in a
    # class yet, your instructor gives you a code") is for those who teach none, or
    # who also belong to a class as a student.
    teaching = taught_classes(user)
    arguments = list(Argument.objects.for_user(user)[:RECENT])
    for argument in arguments:
        # Step names are in the argument's language, as on its own page.
        argument.current_label = argument.step_label(argument.current_step)
    return render(
        request,
        "dashboard.html",
        {
            "arguments": arguments,
            "trials": Trial.objects.for_user(user).select_related("argument")[:RECENT],
            # Their own runs of every format, each under its format's name; the
            # shared demo is offered separately.
            "debate_groups": debates_by_format(user=user, per_format=RECENT),
            "demo_debate": Debate.objects.filter(is_demo=True).order_by("id").first(),
            "classes": classes,
            "teaching": teaching,
            # The first open assignment not started: its Start comes before "Start an argument".
            "waiting": next(
                (
                    row
                    for card in classes
                    for row in card.assignments
                    if row.submission is None and not row.closed
                ),
                None,
            ),
            "feedback": released_feedback(student=user),
        },
    )
