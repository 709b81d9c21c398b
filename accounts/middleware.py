"""Refuse a sign-in or a password-reset request from an address over its allowance (429).

Checked before the view reads the password, for the sign-in form and the
admin's (by URL name), so the answer is the same whether the password was
right or not. See accounts/throttle.py.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.throttle import password_reset_refused, sign_in_refused
from limits.services import when

__all__ = ["SignInThrottleMiddleware"]

SIGN_IN_VIEWS = {"login", "admin:login"}
PASSWORD_RESET_VIEWS = {"password_reset"}


def _refusal(request: HttpRequest, *, reset: bool, retry_at: datetime | None) -> HttpResponse:
    context = {"reset": reset, "when": when(retry_at) if retry_at else ""}
    response = render(request, "registration/throttled.html", context, status=429)
    if retry_at is not None:
        response["Retry-After"] = str(max(int((retry_at - timezone.now()).total_seconds()), 1))
    return response


class SignInThrottleMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match is None:
            return None
        name = request.resolver_match.view_name
        if name in SIGN_IN_VIEWS:
            retry_at = sign_in_refused(request)
            if retry_at is not None:
                request._signin_refused = True
                return _refusal(request, reset=False, retry_at=retry_at)
        elif name in PASSWORD_RESET_VIEWS:
            retry_at = password_reset_refused(request)
            if retry_at is not None:
                return _refusal(request, reset=True, retry_at=retry_at)
        return None
