"""Who may frame the LTI pages, and the cookies that keep the session inside the iframe."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from lti.framing import origin_of, origins
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch
from tests.lti.platform import LTI

CSP = "Content-Security-Policy"


def _policy(response) -> str:
    # Report-only in debug, enforced otherwise: the tests read whichever is sent.
    return response.get(CSP) or response.get(CSP + "-Report-Only") or ""


def _frame_ancestors(response) -> list[str]:
    for directive in _policy(response).split(";"):
        name, _, value = directive.strip().partition(" ")
        if name == "frame-ancestors":
            return value.split()
    return []


def test_it_lets_the_launching_platform_frame_the_launch_and_the_pages_after_it(
    registration, platform, settings
):
    settings.LTI_FRAME_ANCESTORS = ["https://school.instructure.com"]
    client = Client()
    # The signed return URL names the course page the LMS shows the tool in.
    presentation = {"document_target": "iframe", "return_url": "https://lms.school.example/c/1"}
    result = launch(
        client,
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        **{LTI + "launch_presentation": presentation},
    )
    assert result.response.status_code == 302
    expected = ["'self'", platform.issuer, "https://lms.school.example"]
    assert _frame_ancestors(result.response)[:3] == expected
    assert "X-Frame-Options" not in result.response
    page = client.get(result.response["Location"])
    assert page.status_code == 200
    assert _frame_ancestors(page) == [*expected, "https://school.instructure.com"]
    assert "X-Frame-Options" not in page
    # The cookies that carry the session inside the LMS's iframe.
    for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME):
        cookie = (result.response.cookies | page.cookies).get(name)
        assert cookie is not None, name
        assert cookie["secure"] is True and cookie["samesite"] == "None; Partitioned"
        assert "SameSite=None; Partitioned" in cookie.output()


def test_it_lets_every_registered_platform_frame_a_refused_launch(registration, platform, settings):
    settings.LTI_FRAME_ANCESTORS = ["https://school.instructure.com"]
    result = launch(Client(), platform, sub="student-1", roles=LEARNER)  # no class yet
    assert result.response.status_code == 403
    assert _frame_ancestors(result.response) == [
        "'self'",
        platform.issuer,
        "https://school.instructure.com",
    ]
    login = Client().get(reverse("lti:login"))
    assert login.status_code == 400 and platform.issuer in _frame_ancestors(login)


def test_it_keeps_other_sessions_unframeable(registration, platform):
    user = get_user_model().objects.create_user("ada", password="a-long-enough-pass")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("dashboard"))
    assert _frame_ancestors(page) == ["'none'"]
    assert page["X-Frame-Options"] == "DENY"
    assert not page.cookies.get(settings.CSRF_COOKIE_NAME) or (
        page.cookies[settings.CSRF_COOKIE_NAME]["samesite"] == "Lax"
    )


@pytest.mark.parametrize(
    ("url", "origin"),
    [
        ("https://Moodle.School.org/mod/lti/auth.php?x=1", "https://moodle.school.org"),
        ("http://127.0.0.1:8080/auth", "http://127.0.0.1:8080"),
        ("https://[::1]:8443/x", "https://[::1]:8443"),
        ("https://evil.example; script-src *", None),
        ("https://evil.example 'unsafe-inline'", None),
        ("javascript:alert(1)", None),
        ("https://user:pw@lms.example/", None),
        ("", None),
        (None, None),
        (["https://lms.example"], None),
    ],
)
def test_it_takes_only_an_http_origin_from_a_url(url, origin):
    assert origin_of(url) == origin


def test_it_lists_each_origin_once():
    assert origins(["https://a.example/x", "https://a.example/y", "bad", "http://b.example"]) == [
        "https://a.example",
        "http://b.example",
    ]


def test_it_says_what_to_do_when_the_browser_blocked_the_iframes_cookies(registration, platform):
    # Safari keeps no third-party cookie: the launch inside the LMS's iframe comes back
    # without the state cookie set at login initiation.
    token = platform.sign(platform.claims(sub="s", roles=LEARNER, nonce="n"))
    data = {"id_token": token, "state": "state-from-a-cookie-the-browser-dropped"}
    framed = Client().post(reverse("lti:launch"), data, headers={"Sec-Fetch-Dest": "iframe"})
    assert framed.status_code == 403
    assert "open in a new window" in framed.content.decode()
    # The same failure in a window of its own is the plain refusal.
    top = Client().post(reverse("lti:launch"), data, headers={"Sec-Fetch-Dest": "document"})
    assert "could not be verified" in top.content.decode()
