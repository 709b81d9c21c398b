from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlparse

import pytest
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiDeployment, LtiRegistration

from tests.lti.platform import CLIENT_ID, DEPLOYMENT_ID, MEMBERSHIP, TestPlatform

INSTRUCTOR = [MEMBERSHIP + "Instructor"]
LEARNER = [MEMBERSHIP + "Learner"]


@pytest.fixture
def platform():
    test_platform = TestPlatform().start()
    yield test_platform
    test_platform.stop()


@pytest.fixture
def registration(db, platform: TestPlatform) -> LtiRegistration:
    return register(platform)


def register(platform: TestPlatform) -> LtiRegistration:
    """The platform registered here, with one active deployment."""
    registration = LtiRegistration.objects.create(
        name="Test LMS",
        issuer=platform.issuer,
        client_id=CLIENT_ID,
        auth_url=platform.url("/auth"),
        token_url=platform.url("/token"),
        keyset_url=platform.url("/jwks"),
    )
    LtiDeployment.objects.create(
        registration=registration, deployment_id=DEPLOYMENT_ID, is_active=True
    )
    return registration


@dataclass
class Launch:
    response: object
    id_token: str
    state: str


def login_initiation(client: Client, platform: TestPlatform, sub: str) -> dict[str, str]:
    """The platform's third-party login initiation; returns the auth request's params."""
    response = client.post(
        reverse("lti:login"),
        {
            "iss": platform.issuer,
            "login_hint": sub,
            "target_link_uri": "http://testserver/lti/launch/",
            "client_id": CLIENT_ID,
            "lti_message_hint": "hint",
        },
    )
    assert response.status_code == 302, response.content
    location = urlparse(response["Location"])
    assert f"{location.scheme}://{location.netloc}{location.path}" == platform.url("/auth")
    return {k: v[0] for k, v in parse_qs(location.query).items()}


def launch(
    client: Client,
    platform: TestPlatform,
    *,
    sub: str,
    roles: list[str],
    private_pem: bytes | None = None,
    **claims,
) -> Launch:
    """Login initiation, then the platform's signed id_token POSTed to the launch URL."""
    auth = login_initiation(client, platform, sub)
    assert auth["client_id"] == CLIENT_ID and auth["response_mode"] == "form_post"
    body = platform.claims(sub=sub, roles=roles, nonce=auth["nonce"], **claims)
    id_token = platform.sign(body, private_pem=private_pem)
    redirect_path = urlparse(auth["redirect_uri"]).path
    response = client.post(redirect_path, {"id_token": id_token, "state": auth["state"]})
    return Launch(response=response, id_token=id_token, state=auth["state"])
