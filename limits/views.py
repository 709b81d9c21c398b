"""The page a locked-out sign-in gets (django-axes calls `locked_out`, see settings)."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from limits.services import when

__all__ = ["locked_out"]


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """A plain page in the visitor's language, 429, saying when signing in works again.

    The lockout starts again from the last failed attempt, so the time is
    counted from now (the attempt that got this page).
    """
    cool_off = get_cool_off(request)
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "when": when(timezone.now() + cool_off) if cool_off else "",
    }
    return render(request, "registration/locked_out.html", context, status=429)
