"""Per-address throttles on signing in and on password-reset requests.

django-axes locks one username from one address after a few wrong passwords;
that does nothing against a *spray* (one password tried on many usernames).
So every failed sign-in also counts against its address, in a sliding
window (`limits.rates`): past ``LOGIN_ADDRESS_FAILURE_LIMIT`` failures in
``LOGIN_ADDRESS_WINDOW_MINUTES`` minutes, every sign-in from that address is
refused (429) until the oldest failure leaves the window, the right password
included (else the refusal would tell a guess that worked). Only failures
count, so a class signing in together behind one school address is not
throttled by its own successes.

Password-reset requests count per address (``PASSWORD_RESET_PER_HOUR``) and
per email address asked for (``PASSWORD_RESET_PER_EMAIL_PER_HOUR``, so many
addresses cannot flood one inbox), refused or not.

Which address a request comes from is `accounts.addresses.client_address`
with ``TRUSTED_PROXIES``.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils import timezone

from accounts.addresses import client_address, ip_or_none
from limits import rates

__all__ = [
    "address_of",
    "axes_address",
    "count_failed_sign_in",
    "password_reset_refused",
    "sign_in_refused",
]

SIGN_IN = "signin_address"
RESET_ADDRESS = "password_reset_address"
RESET_EMAIL = "password_reset_email"


def address_of(request: HttpRequest) -> str:
    return client_address(request.META, trusted_proxies=settings.TRUSTED_PROXIES)


def axes_address(request: HttpRequest) -> str | None:
    """The address django-axes keeps (AXES_CLIENT_IP_CALLABLE): always an IP address.

    Axes stores it in an IP column, so the shared bucket of forwarded requests
    is not one; axes gets the server's REMOTE_ADDR for those, as before. The
    per-address throttle here is what holds a rotating X-Forwarded-For.
    """
    return ip_or_none(address_of(request)) or ip_or_none(request.META.get("REMOTE_ADDR"))


def _sign_in_window() -> tuple[int, float]:
    return settings.LOGIN_ADDRESS_FAILURE_LIMIT, settings.LOGIN_ADDRESS_WINDOW_MINUTES * 60


def _moment(retry_at: float | None) -> datetime | None:
    if retry_at is None:
        return None
    return datetime.fromtimestamp(retry_at, tz=timezone.get_current_timezone())


def sign_in_refused(request: HttpRequest) -> datetime | None:
    """When signing in from this address works again, or None if it works now."""
    limit, period = _sign_in_window()
    usage = rates.check(SIGN_IN, address_of(request), limit=limit, period=period)
    return None if usage is None or usage.allowed else _moment(usage.retry_at)


def count_failed_sign_in(
    sender: Any, credentials: Any = None, request: Any = None, **_: Any
) -> None:
    """user_login_failed: one more failure against the request's address."""
    if not isinstance(request, HttpRequest) or getattr(request, "_signin_refused", False):
        return
    limit, period = _sign_in_window()
    rates.take(SIGN_IN, address_of(request), limit=limit, period=period)


def _email_key(email: object) -> str:
    # A hash: the cache never holds the email addresses people typed.
    text = email.strip().lower() if isinstance(email, str) else ""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:32]


def password_reset_refused(request: HttpRequest) -> datetime | None:
    """Count one password-reset request; when one works again if it is refused, else None."""
    per_address = rates.take(
        RESET_ADDRESS, address_of(request), limit=settings.PASSWORD_RESET_PER_HOUR, period=3600
    )
    if per_address is not None and not per_address.allowed:
        return _moment(per_address.retry_at)
    per_email = rates.take(
        RESET_EMAIL,
        _email_key(request.POST.get("email")),
        limit=settings.PASSWORD_RESET_PER_EMAIL_PER_HOUR,
        period=3600,
    )
    if per_email is not None and not per_email.allowed:
        return _moment(per_email.retry_at)
    return None
