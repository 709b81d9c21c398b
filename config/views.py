"""Site-wide plumbing pages: the favicon and the health probe.

The public home page and a signed-in user's own page live in `home/`:
`config` imports no product app.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

__all__ = ["favicon", "healthz"]


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    # Browsers and crawlers ask for /favicon.ico whatever the page links; the file is static.
    return HttpResponseRedirect(static("img/favicon.ico"))


def healthz(request: HttpRequest) -> JsonResponse:
    # A cheap liveness probe for `make run` scripts and load balancers.
    return JsonResponse({"ok": True})
