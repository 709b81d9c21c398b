"""The inquiry pages: new (with the estimate), the live page and the result, a claim's
chains, replay, JSON export. The history is the debates' list, filtered by format.

Who sees what is the debates' rule (engine/visibility.py): one's own, the
demo, and everything for instructors with the view permission; anything
else is a 404.
"""

from __future__ import annotations

import re

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from engine.models import Debate
from engine.visibility import visible_debates
from inquiries import exports, presenters, services
from inquiries.forms import InquiryForm
from inquiries.models import RegisteredClaim
from limits.services import LimitReached
from llm import api_key_configured

__all__ = [
    "inquiry_claim",
    "inquiry_detail",
    "inquiry_estimate",
    "inquiry_export",
    "inquiry_live",
    "inquiry_new",
    "inquiry_replay",
]

CLAIM_KEY = re.compile(r"C-[0-9]{1,9}")


def _get_inquiry_for_user(request: HttpRequest, pk: int) -> Debate:
    return get_object_or_404(
        visible_debates(request.user).filter(format="inquiry").select_related("inquiry__case_file"),
        pk=pk,
    )


def _demo() -> Debate | None:
    return Debate.objects.filter(format="inquiry", is_demo=True).order_by("id").first()


@login_required
@require_http_methods(["GET", "POST"])
def inquiry_new(request: HttpRequest) -> HttpResponse:
    form = InquiryForm(request.POST or None, user=request.user)
    key = api_key_configured()
    if request.method == "POST" and form.is_valid():
        try:
            debate = services.create_inquiry(
                user=request.user,
                question=form.cleaned_data["question"],
                case_file_id=form.cleaned_data["case_file"].pk,
                models=form.models(),
                max_rounds=form.cleaned_data["max_rounds"],
                budget_usd=form.budget(),
                language=form.cleaned_data["language"],
                specialists=form.cleaned_data["specialists"],
            )
        except ValidationError as error:
            form.add_error(None, error.messages[0])
        except LimitReached as refused:
            form.add_error(None, refused.message)
        else:
            return redirect("inquiries:detail", pk=debate.pk)
    context = {
        "form": form,
        "key_configured": key,
        "demo": _demo(),
        "estimate": presenters.estimate_from(form),
    }
    return render(request, "inquiries/new.html", context, status=400 if form.errors else 200)


@login_required
@require_GET
def inquiry_estimate(request: HttpRequest) -> HttpResponse:
    form = InquiryForm(request.GET, user=request.user)
    return render(
        request, "inquiries/new.html#estimate", {"estimate": presenters.estimate_from(form)}
    )


@login_required
@require_GET
def inquiry_detail(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _get_inquiry_for_user(request, pk)
    return render(request, "inquiries/detail.html", presenters.detail_context(debate, request.user))


@login_required
@require_GET
def inquiry_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part alone, fetched again by the page on each event of the stream."""
    debate = _get_inquiry_for_user(request, pk)
    return render(
        request, "inquiries/detail.html#live", presenters.detail_context(debate, request.user)
    )


@login_required
@require_GET
def inquiry_claim(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    debate = _get_inquiry_for_user(request, pk)
    if not CLAIM_KEY.fullmatch(key):  # junk (a NUL byte breaks PostgreSQL) is simply not found
        raise Http404
    claim = get_object_or_404(RegisteredClaim, inquiry_id=debate.pk, key=key)
    context = {"debate": debate, **presenters.claim_context(claim)}
    template = "inquiries/claim.html#chains" if request.htmx else "inquiries/claim.html"
    return render(request, template, context)


@login_required
@require_GET
def inquiry_replay(request: HttpRequest, pk: int) -> HttpResponse:
    debate = _get_inquiry_for_user(request, pk)
    return render(request, "inquiries/replay.html", presenters.replay_context(debate))


@login_required
@require_GET
def inquiry_export(request: HttpRequest, pk: int) -> JsonResponse:
    debate = _get_inquiry_for_user(request, pk)
    response = JsonResponse(exports.inquiry_json(debate=debate), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="inquiry-{debate.pk}.json"'
    return response
