"""The stress test's pages: start (personas, cost, key needed), result, status, defend.

Who sees a stress test: its student; anyone signed in for a demo one; an
instructor with the permission to view debates (engine/visibility.py).
Anyone else gets 404, on every URL.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from coach.models import Argument
from engine.services import RetryRefused, debates_available, retry_debate
from engine.visibility import sees_every_debate
from limits.services import LimitReached
from stresstests import offline, services
from stresstests.exports import stress_test_json
from stresstests.models import StressTest
from stresstests.presenters import status_context
from stresstests.replay import replay_steps
from untrusted import parse_id

__all__ = [
    "stress_defend",
    "stress_detail",
    "stress_export",
    "stress_graph_svg",
    "stress_replay",
    "stress_retry",
    "stress_start",
    "stress_status",
]


def _get_stress_for_user(request: HttpRequest, pk: int) -> StressTest:
    tests = StressTest.objects.select_related("debate", "argument", "student")
    if not sees_every_debate(request.user):
        tests = tests.filter(Q(student=request.user) | Q(debate__is_demo=True))
    return get_object_or_404(tests, pk=pk)


def _own_stress(request: HttpRequest, pk: int) -> StressTest:
    stress = _get_stress_for_user(request, pk)
    if stress.student_id != request.user.pk:
        raise Http404
    return stress


@login_required
@require_http_methods(["GET", "POST"])
def stress_start(request: HttpRequest, argument_id: int) -> HttpResponse:
    argument = get_object_or_404(Argument, pk=argument_id, owner=request.user)
    offered = services.offered_personas()
    chosen = [p.pk for p in services.default_personas()]
    error = ""
    if request.method == "POST":
        ids = [parse_id(value) for value in request.POST.getlist("personas")]
        chosen = [i for i in ids if i is not None]
        try:
            if request.POST.get("offline"):
                stress = services.start_offline(argument=argument, user=request.user)
            else:
                stress = services.start_stress_test(
                    argument=argument, user=request.user, persona_ids=chosen
                )
        except (services.StressError, LimitReached) as refusal:
            error = str(refusal.messages[0] if hasattr(refusal, "messages") else refusal)
        else:
            return redirect("stresstests:detail", pk=stress.pk)
    picked = [p for p in offered if p.pk in chosen]
    return render(
        request,
        "stresstests/start.html",
        {
            "argument": argument,
            "personas": offered,
            "chosen": chosen,
            "estimate": services.estimate(picked or services.default_personas()),
            "available": debates_available(),
            "error": error,
            "previous": argument.stress_tests.select_related("debate").order_by("-created_at"),
            "demo": StressTest.objects.filter(debate__is_demo=True).first(),
            "scheme": offline.scheme_for(argument),
        },
        status=400 if error else 200,
    )


@login_required
@require_GET
def stress_detail(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _get_stress_for_user(request, pk)
    return render(request, "stresstests/detail.html", status_context(stress, user=request.user))


@login_required
@require_GET
def stress_status(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _get_stress_for_user(request, pk)
    return render(request, "stresstests/_status.html", status_context(stress, user=request.user))


@login_required
@require_POST
def stress_defend(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _own_stress(request, pk)
    error = ""
    try:
        services.defend(
            stress=stress,
            attack_key=(request.POST.get("attack") or "")[:20],
            text=request.POST.get("answer") or "",
        )
    except services.StressError as refusal:
        error = str(refusal)
    if not request.headers.get("HX-Request"):
        if error:
            messages.error(request, error)
        return redirect("stresstests:detail", pk=stress.pk)
    context = status_context(stress, user=request.user)
    context["error"] = error
    return render(request, "stresstests/_status.html", context)


@login_required
@require_POST
def stress_retry(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _own_stress(request, pk)
    try:
        retry_debate(debate_id=stress.debate_id, user=request.user)
    except (RetryRefused, LimitReached):
        messages.error(request, _("This stress test cannot be retried now."))
    return redirect("stresstests:detail", pk=stress.pk)


@login_required
@require_GET
def stress_export(request: HttpRequest, pk: int) -> JsonResponse:
    stress = _get_stress_for_user(request, pk)
    response = JsonResponse(stress_test_json(stress=stress), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="stress-test-{stress.pk}.json"'
    return response


@login_required
@require_GET
def stress_graph_svg(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _get_stress_for_user(request, pk)
    svg = status_context(stress, user=request.user)["svg"]
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@login_required
@require_GET
def stress_replay(request: HttpRequest, pk: int) -> HttpResponse:
    stress = _get_stress_for_user(request, pk)
    return render(
        request, "stresstests/replay.html", {"stress": stress, "steps": replay_steps(stress)}
    )
