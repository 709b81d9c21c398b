"""Let the LMS that launched a session frame its pages (see lti/framing.py for why and how).

Placed just below django-csp's middleware and above the session, CSRF and
clickjacking middleware, so that on the way out it runs after they set their
cookies and X-Frame-Options, and before django-csp writes the policy.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import reverse
from lti_tool.models import LtiRegistration

from lti.framing import SESSION_KEY, frame_cookie, origins

__all__ = ["LtiFramingMiddleware", "registered_origins"]

# PyLTI1p3's state and launch-data cookies, set at login initiation.
_PYLTI_COOKIE_PREFIX = "lti1p3-"


def registered_origins() -> list[str]:
    """The origins of every active platform registration, and LTI_FRAME_ANCESTORS."""
    urls: list[object] = []
    for issuer, auth_url in LtiRegistration.objects.active().values_list("issuer", "auth_url"):
        urls += [issuer, auth_url]
    return origins([*urls, *settings.LTI_FRAME_ANCESTORS])


class LtiFramingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self._entry_points: tuple[str, ...] | None = None

    def _is_entry_point(self, request: HttpRequest) -> bool:
        if self._entry_points is None:
            self._entry_points = (reverse("lti:login"), reverse("lti:launch"))
        return request.path_info in self._entry_points

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        session = getattr(request, "session", None)
        launched = session.get(SESSION_KEY) if session is not None else None
        if self._is_entry_point(request):
            allowed = origins([*(launched or []), *registered_origins()])
        elif isinstance(launched, list) and launched:
            allowed = origins([*launched, *settings.LTI_FRAME_ANCESTORS])
        else:
            return response
        self._frame(request, response, allowed)
        return response

    @staticmethod
    def _frame(request: HttpRequest, response: HttpResponseBase, allowed: list[str]) -> None:
        # The platform's origins replace 'none' (the same attribute django-csp's
        # @csp_replace sets; set here because the origins depend on the request).
        directive = {"frame-ancestors": ["'self'", *allowed]}
        response._csp_replace = directive
        response._csp_replace_ro = directive
        # CSP's frame-ancestors supersedes it, but an older browser would still obey DENY.
        if "X-Frame-Options" in response:
            del response["X-Frame-Options"]
        framed = {settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME}
        framed.add(settings.LANGUAGE_COOKIE_NAME)
        for name, morsel in response.cookies.items():
            if name in framed or name.startswith(_PYLTI_COOKIE_PREFIX):
                frame_cookie(morsel)
