"""The graph debate's pages: new debate (+ its cost estimate), live, result, replay, exports.

Who sees what (engine/visibility.py): every page needs a signed-in user; a
user sees their own debates and the demo debates, staff see all. Anyone
signed in may start a debate, which needs an API key (the form says so
instead of queueing a debate that could only fail). The history of every
format's runs, their Retry and Stop, and the event stream are the engine's
(engine/views.py, engine/sse.py).

Views stay thin: find the debate the user may see (404 otherwise), call one
function that builds what the page shows (debates/presenters.py,
debates/exports.py, debates/services.py), render.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from debates import exports, presenters, services
from debates.forms import DebateForm
from engine.formats import get_format, page_url
from engine.models import Debate
from engine.visibility import sees_every_debate, visible_debates
from engine.wording import key_needed_message
from llm import api_key_configured

__all__ = [
    "debate_estimate",
    "debate_export_iccma",
    "debate_export_json",
    "debate_graph_svg",
    "debate_live",
    "debate_new",
    "debate_replay",
    "debate_result",
]


def _debate_for(request: HttpRequest, pk: int) -> Debate:
    # A debate the user may not see is indistinguishable from a missing one.
    return get_object_or_404(
        visible_debates(request.user).select_related("creator").prefetch_related("personas"),
        pk=pk,
    )


def _graph_debate_for(request: HttpRequest, pk: int) -> Debate:
    """A graph debate the user may see. The exports are a graph debate's: an inquiry's,
    a tournament's or a stress test's id is a 404 (each has its own export)."""
    debate = _debate_for(request, pk)
    if debate.format != "graph":
        raise Http404("not a graph debate")
    return debate


@login_required
@require_http_methods(["GET", "POST"])
def debate_new(request: HttpRequest) -> HttpResponse:
    key_configured = api_key_configured()
    form = DebateForm(
        request.POST or None, initial=presenters.new_debate_initial(), user=request.user
    )
    if request.method == "POST" and form.is_valid():
        if not key_configured:
            form.add_error(None, key_needed_message())
        else:
            try:
                debate = services.create_debate(
                    topic=form.cleaned_data["topic"],
                    persona_ids=[persona.pk for persona in form.cleaned_data["personas"]],
                    max_rounds=form.cleaned_data["max_rounds"],
                    budget_usd=form.budget(),
                    creator=request.user,
                )
            except ValidationError as error:
                # The service re-checks (a persona retired meanwhile, the key removed).
                form.add_error(None, error)
            else:
                return redirect("debates:live", pk=debate.pk)
    context = {
        "form": form,
        "key_configured": key_configured,
        "key_needed": key_needed_message(),
        "estimate": presenters.estimate_from(data=request.POST or form.initial),
        "demo": Debate.objects.filter(is_demo=True).order_by("pk").first(),
    }
    return render(request, "debates/new.html", context)


@login_required
@require_GET
def debate_estimate(request: HttpRequest) -> HttpResponse:
    """The estimate box alone, re-rendered by htmx as the form changes."""
    context = {"estimate": presenters.estimate_from(data=request.GET)}
    return render(request, "debates/new.html#estimate", context)


@login_required
@require_GET
def debate_live(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _debate_for(request, pk)
    if debate.format != "graph":
        return redirect(page_url(debate))
    context = presenters.live_context(debate=debate)
    context["retry_offered"] = debate.retry_offered_to(request.user)
    context["stop_offered"] = debate.stop_offered_to(request.user)
    return render(request, "debates/live.html", context)


def _format_replay_url(debate: Debate) -> str | None:
    """The format's own replay page, if it has one (an unknown format has none)."""
    try:
        replay_url = get_format(debate.format).replay_url
    except KeyError:
        return None
    return replay_url(debate) if replay_url is not None else None


@login_required
@require_GET
def debate_replay(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _debate_for(request, pk)
    if (own_replay := _format_replay_url(debate)) is not None:
        return redirect(own_replay)
    return render(request, "debates/live.html", presenters.replay_context(debate=debate))


@login_required
@require_GET
def debate_result(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _debate_for(request, pk)
    if debate.format != "graph":
        # Another format's debate has its own pages (engine/formats.py).
        return redirect(page_url(debate))
    context = presenters.result_context(debate=debate)
    context["retry_offered"] = debate.retry_offered_to(request.user)
    return render(request, "debates/result.html", context)


@login_required
@require_GET
def debate_graph_svg(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _debate_for(request, pk)
    return HttpResponse(presenters.graph_svg(debate=debate), content_type="image/svg+xml")


@login_required
@require_GET
def debate_export_json(request: HttpRequest, pk: int) -> JsonResponse:
    debate = _graph_debate_for(request, pk)
    # Students get the debate and its total cost; the per-call token ledger is instructors'.
    data = exports.debate_json(debate=debate, ledger=sees_every_debate(request.user))
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="debate-{debate.pk}.json"'
    return response


@login_required
@require_GET
def debate_export_iccma(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _graph_debate_for(request, pk)
    response = HttpResponse(
        exports.debate_iccma23(debate=debate), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="debate-{debate.pk}.af"'
    return response
