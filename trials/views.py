"""The trial pages: my trials, ask a question, put an argument on trial, one trial.

Views stay thin: they find the student's own records (404 for anyone
else's), call one service function and render. A trial's page polls its own
`#phases` partial with htmx every second until the trial is finished.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from coach.models import Argument
from limits.services import LimitReached
from llm import api_key_configured
from trials.forms import QuestionForm
from trials.models import Trial
from trials.presenters import present
from trials.services import TrialRefused, retry_trial, start_trial

__all__ = ["trial_ask", "trial_detail", "trial_list", "trial_retry", "trial_start"]

# No server variable here: students read it (the staff's detail is in _ai_not_configured.html).
KEY_NEEDED = _(
    "This site's AI service is not set up yet, so a trial cannot run here for now. "
    "Open the demo trial to see what a trial does with a finished argument."
)


def _demo_trial() -> Trial | None:
    return Trial.objects.filter(is_demo=True).only("pk").first()


@login_required
@require_GET
def trial_list(request: HttpRequest) -> HttpResponse:
    trials = Trial.objects.for_user(request.user).select_related("argument")
    completed = Argument.objects.for_user(request.user).filter(completed_at__isnull=False)
    return render(
        request,
        "trials/trial_list.html",
        {
            "trials": trials,
            "completed_arguments": completed,
            "key_needed": not api_key_configured(),
            "demo_trial": _demo_trial(),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def trial_ask(request: HttpRequest) -> HttpResponse:
    form = QuestionForm(request.POST or None)
    key_needed = not api_key_configured()
    if request.method == "POST" and form.is_valid():
        if key_needed:
            messages.error(request, KEY_NEEDED)
        else:
            try:
                trial = start_trial(user=request.user, question=form.cleaned_data["question"])
            except TrialRefused as refused:
                form.add_error("question", str(refused))
            except LimitReached as refused:
                form.add_error(None, refused.message)
            else:
                return redirect("trials:trial_detail", trial_id=trial.pk)
    return render(
        request,
        "trials/trial_ask.html",
        {"form": form, "key_needed": key_needed, "demo_trial": _demo_trial()},
    )


@login_required
@require_POST
def trial_start(request: HttpRequest, argument_id: int) -> HttpResponse:
    """Put one of the student's own completed arguments on trial."""
    argument = get_object_or_404(
        Argument.objects.for_user(request.user).filter(completed_at__isnull=False),
        pk=argument_id,
    )
    if not api_key_configured():
        messages.error(request, KEY_NEEDED)
        return redirect("trials:trial_list")
    try:
        trial = start_trial(user=request.user, argument=argument)
    except LimitReached as refused:
        messages.error(request, refused.message)
        return redirect("trials:trial_list")
    return redirect("trials:trial_detail", trial_id=trial.pk)


@login_required
@require_POST
def trial_retry(request: HttpRequest, trial_id: int) -> HttpResponse:
    """Run the student's failed trial again, from after its last saved phase."""
    trial = get_object_or_404(Trial.objects.for_user(request.user), pk=trial_id)
    if not api_key_configured():
        messages.error(request, KEY_NEEDED)
    else:
        try:
            retry_trial(trial_id=trial.pk, user=request.user)
        except TrialRefused:
            messages.error(request, _("Only a failed trial can be retried."))
        except LimitReached as refused:
            messages.error(request, refused.message)
    return redirect("trials:trial_detail", trial_id=trial.pk)


@login_required
@require_GET
def trial_detail(request: HttpRequest, trial_id: int) -> HttpResponse:
    trial = get_object_or_404(
        Trial.objects.visible_to(request.user).select_related("argument"), pk=trial_id
    )
    template = "trials/trial_detail.html"
    if request.htmx:
        template += "#phases"
    return render(
        request,
        template,
        {
            "view": present(trial),
            "trial": trial,
            "key_needed": not api_key_configured(),
            "own": trial.owner_id == request.user.pk,
        },
    )
