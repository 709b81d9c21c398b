"""The tournament pages: new (with its estimate), the bracket (live, then the result),
a match, the leaderboard and system health.

Who sees what is the debates' rule (engine/visibility.py): a tournament is
a debate, so a user sees their own and the demo ones, and another user's is
a 404. The leaderboard and health pages show only aggregates (ratings,
rates), to every signed-in user. Live updates: the bracket page follows the
debate's own event stream (``engine:events``) and re-fetches its bracket
partial on each event (static/js/tournament_live.js).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from engine.models import Debate, DebateStatus
from engine.stop_messages import stop_sentence
from engine.visibility import visible_debates
from engine.wording import failure_message
from limits.services import LimitReached
from llm import api_key_configured
from tournaments import exports, notices, presenters
from tournaments.budget import BudgetExceeded
from tournaments.forms import TournamentForm
from tournaments.models import DecisionTypeChoice, Match
from tournaments.services import create_tournament

__all__ = [
    "tournament_bracket",
    "tournament_detail",
    "tournament_estimate",
    "tournament_export",
    "tournament_health",
    "tournament_leaderboard",
    "tournament_match",
    "tournament_new",
]


def _tournament_for(request: HttpRequest, pk: int) -> Debate:
    """The tournament's debate if the user may see it; anything else is a 404."""
    visible = visible_debates(request.user).filter(format="tournament")
    return get_object_or_404(visible.select_related("tournament"), pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    key_configured = api_key_configured()
    form = TournamentForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = create_tournament(
                user=request.user,
                question=data["question"],
                decision_type=data["decision_type"],
                models=data["models"],
                budget_usd=form.budget(),
                max_rounds=data["max_rounds"],
                convergence_threshold=data["convergence_threshold"],
                force_diversity=data["force_diversity"],
                no_cache=data["no_cache"],
                context=data["context"],
                case_file=data["case_file"],
            )
        except (ValidationError, BudgetExceeded, LimitReached) as error:
            form.add_error(None, error.messages if hasattr(error, "messages") else str(error))
        else:
            return redirect("tournaments:detail", pk=tournament.debate_id)
    context = {
        "form": form,
        "key_configured": key_configured,
        "estimate": _estimate(request.POST if request.method == "POST" else None),
        "demo": presenters.demo_tournament(),
    }
    return render(request, "tournaments/new.html", context)


def _estimate(data) -> dict:
    if data is None:
        return {"ready": False}
    return presenters.estimate_from(
        models=[m for m in data.getlist("models") if m][:5],
        max_rounds=data.get("max_rounds"),
        context=(data.get("context") or "")[:8000],
    )


@login_required
@require_GET
def tournament_estimate(request: HttpRequest) -> HttpResponse:
    """The estimate box alone, re-rendered by htmx as the form changes."""
    return render(request, "tournaments/new.html#estimate", {"estimate": _estimate(request.GET)})


def _detail_context(request: HttpRequest, debate: Debate) -> dict:
    tournament = debate.tournament
    failed = debate.status == DebateStatus.FAILED
    return {
        "debate": debate,
        "tournament": tournament,
        "rounds": presenters.bracket(tournament),
        "result": debate.output if debate.is_finished else None,
        # A plain sentence, never the stored error (it names stages and codes).
        "failure": failure_message(debate=debate) if failed else "",
        "retry_offered": failed and debate.retry_offered_to(request.user),
        "stop_offered": debate.stop_offered_to(request.user),
        # Why it stopped, in the reader's language (the output keeps the English one).
        "stop_sentence": stop_sentence(debate.stop_code, debate.stop_params) or debate.stop_detail,
    }


@login_required
@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _tournament_for(request, pk)
    return render(request, "tournaments/detail.html", _detail_context(request, debate))


@login_required
@require_GET
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket (and, once finished, the result) alone: the live page re-fetches it."""
    debate = _tournament_for(request, pk)
    return render(request, "tournaments/detail.html#live", _detail_context(request, debate))


@login_required
@require_GET
def tournament_export(request: HttpRequest, pk: int) -> JsonResponse:
    """The tournament as JSON (tournaments/exports.py): settings, budget, matches with their
    transcripts, the ratings before and after, the result; the command line writes the same."""
    debate = _tournament_for(request, pk)
    response = JsonResponse(exports.tournament_json(debate=debate), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="tournament-{debate.pk}.json"'
    return response


@login_required
@require_GET
def tournament_match(request: HttpRequest, pk: int, match_pk: int) -> HttpResponse:
    debate = _tournament_for(request, pk)
    match = get_object_or_404(Match, pk=match_pk, tournament=debate.tournament)
    context = {
        "debate": debate,
        "match": match,
        "turns": presenters.transcript(match),
        "chart": presenters.convergence_chart(match),
        "disputed_notice": notices.disputed_notice(match),
        "failure_notice": notices.failure_notice(match),
        "convergence_rows": [
            {**row, "method_name": notices.method_name(str(row.get("method", "")))}
            for row in match.convergence_scores
            if isinstance(row, dict)
        ],
    }
    return render(request, "tournaments/match.html", context)


@login_required
@require_GET
def tournament_leaderboard(request: HttpRequest) -> HttpResponse:
    choices = dict(DecisionTypeChoice.choices)
    decision_type = request.GET.get("decision_type", "database")
    if decision_type not in choices:
        decision_type = "database"
    chart, chart_rows = presenters.rating_chart(decision_type)
    context = {
        "decision_types": DecisionTypeChoice.choices,
        "decision_type": decision_type,
        "decision_label": choices[decision_type],
        "rows": presenters.leaderboard(decision_type),
        "chart": chart,
        "chart_rows": chart_rows,
        "mine": visible_debates(request.user)
        .filter(format="tournament")
        .select_related("tournament")
        .order_by("-pk")[:20],
    }
    return render(request, "tournaments/leaderboard.html", context)


@login_required
@require_GET
def tournament_health(request: HttpRequest) -> HttpResponse:
    stats = presenters.health(Debate.objects.filter(format="tournament"))
    return render(request, "tournaments/health.html", {"stats": stats})
