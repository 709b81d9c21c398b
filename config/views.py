"""Site-wide pages: the public home page, a signed-in student's own page, the favicon, health.

The student's page reads the rooms (coach, trials, debates) and writes nothing:
it is where a sign-in lands, and where the classroom will add a student's classes.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from classroom.presenters import student_classes
from coach.models import Argument
from debates.models import Debate
from trials.models import Trial

__all__ = ["dashboard", "favicon", "healthz", "home"]

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
def dashboard(request: HttpRequest) -> HttpResponse:
    user = request.user
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
            # Their own debates; the shared demo is offered separately.
            "debates": Debate.objects.filter(creator=user).order_by("-created_at", "-id")[:RECENT],
            "demo_debate": Debate.objects.filter(is_demo=True).order_by("id").first(),
            "classes": student_classes(user),
        },
    )


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    # Browsers and crawlers ask for /favicon.ico whatever the page links; the file is static.
    return HttpResponseRedirect(static("img/favicon.ico"))


def healthz(request: HttpRequest) -> JsonResponse:
    # A cheap liveness probe for `make run` scripts and load balancers.
    return JsonResponse({"ok": True})
