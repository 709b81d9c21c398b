"""Letting the LMS frame the tool: which origins, and cookies that work in its iframe.

Moodle and Canvas open a tool inside an iframe of the course page by default.
The site sends ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``
everywhere (no clickjacking); for LTI, `LtiFramingMiddleware` relaxes both,
and only:

* on the LTI entry points (login initiation and launch, whose refusal page
  must show inside the iframe too): every active registration's origins;
* on every page of a session an LTI launch signed in: the origins of the
  platform that launched it (kept in the session at the launch) and
  ``LTI_FRAME_ANCESTORS``.

A platform's origins are those of its issuer and its authorization URL (the
LMS's own address: Moodle's issuer is its site; Canvas's issuer is generic
and its authorization endpoint is on the school's Canvas), the launch's
signed ``launch_presentation.return_url`` (the course page the tool returns
to), and any origin listed in ``LTI_FRAME_ANCESTORS``.

Inside the LMS's iframe the tool's cookies are third-party: a browser sends
them only if they are ``SameSite=None; Secure``, and a browser that blocks
third-party cookies (Chrome with that setting, every private window) keeps
them only when they are also ``Partitioned`` (CHIPS: kept per top-level
site, so the tool's session inside Moodle is not the one in a tab of its
own). So on the same responses the session, CSRF, language and PyLTI1p3
state cookies get those three attributes. Safari keeps no third-party cookie
at all: there the LMS must open the tool in a new window (docs/lti.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from http.cookies import Morsel
from urllib.parse import urlsplit

__all__ = ["SESSION_KEY", "frame_cookie", "origin_of", "origins"]

#: The session key holding the launching platform's origins.
SESSION_KEY = "lti_frame_ancestors"

# A host and optional port, nothing that could end or extend a CSP directive.
_NETLOC = re.compile(
    r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$"
)


def origin_of(url: object) -> str | None:
    """The web origin of an http(s) URL ("https://moodle.school.org"), or None."""
    if not isinstance(url, str) or len(url) > 2048:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not _NETLOC.match(parts.netloc or ""):
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}"


def origins(urls: Iterable[object]) -> list[str]:
    """The distinct origins of `urls`, in order, leaving out what is not an http(s) URL."""
    found: list[str] = []
    for url in urls:
        origin = origin_of(url)
        if origin and origin not in found:
            found.append(origin)
    return found


def frame_cookie(morsel: Morsel) -> None:
    """Make a cookie one the browser keeps and sends inside another site's iframe."""
    morsel["secure"] = True
    # Python's cookies learn the Partitioned attribute only in 3.14; the SameSite
    # value is written as it is, so this writes "SameSite=None; Partitioned".
    morsel["samesite"] = "None; Partitioned"
