"""The pages every format shares: the runs history, and a run's Retry and Stop.

They keep the addresses they had when they lived with the graph debate
(``/debates/``, ``/debates/<pk>/retry/``, ``/debates/<pk>/stop/``, and the
event stream's ``/debates/<pk>/events``, engine/sse.py), so bookmarks and
links still work. Who sees what is engine/visibility.py's rule: a run the
user may not see is a 404, like a missing one. After a Retry or a Stop the
owner is sent to the run's own page (its format's, engine/formats.page_url).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from engine import presenters, services
from engine.formats import page_url
from engine.forms import RunFilterForm
from engine.models import Debate
from engine.visibility import visible_debates
from engine.wording import retry_refused_message
from limits.services import LimitReached

__all__ = ["run_list", "run_retry", "run_stop"]

PAGE_SIZE = 20


def _run_for(request: HttpRequest, pk: int) -> Debate:
    # A run the user may not see is indistinguishable from a missing one.
    return get_object_or_404(visible_debates(request.user), pk=pk)


@login_required
@require_GET
def run_list(request: HttpRequest) -> HttpResponse:
    form = RunFilterForm(request.GET or None)
    runs = presenters.filter_runs(
        runs=visible_debates(request.user),
        filters=form.cleaned_data if form.is_valid() else {},
        user=request.user,
    )
    page = Paginator(runs.select_related("creator"), PAGE_SIZE).get_page(request.GET.get("page"))
    chosen = form.cleaned_data.get("format", "") if form.is_valid() else ""
    context = {
        "form": form,
        "page": page,
        "query": presenters.query_without_page(request.GET),
        "listing": presenters.listing_for(chosen),
        "default_format": presenters.DEFAULT_FORMAT,
    }
    template = "engine/runs.html#results" if request.htmx else "engine/runs.html"
    return render(request, template, context)


@login_required
@require_POST
def run_retry(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's Retry of a failed run: it resumes, and its page follows it."""
    run = _run_for(request, pk)
    try:
        run = services.retry_debate(debate_id=run.pk, user=request.user)
    except services.RetryRefused:
        messages.error(request, retry_refused_message(debate=run))
    except LimitReached as refused:
        messages.error(request, refused.message)
    return redirect(page_url(run))


@login_required
@require_POST
def run_stop(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's Stop of a queued or running run, of any format: it ends before its next stage."""
    run = _run_for(request, pk)
    try:
        asked = services.request_stop(debate_id=run.pk, user=request.user)
    except services.StopRefused:
        messages.error(request, _("Only a run of yours that has not ended can be stopped."))
    else:
        messages.success(
            request,
            # A queued run is ended at once (engine.services.request_stop).
            _("Stopped before it began: nothing was paid for.")
            if asked.is_finished
            else _("It will stop before its next stage; the stage under way finishes and is kept."),
        )
    return redirect(page_url(run))
