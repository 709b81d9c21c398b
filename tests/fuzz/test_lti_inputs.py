"""Fuzz the LTI endpoints and the roster parser: whatever an LMS sends, never a 5xx.

A launch is the real protocol against the test platform (tests/lti): a login
initiation, then an id_token signed with the platform's key whose claims
hypothesis replaces with any JSON (nulls, strings for objects, arrays for
strings, NUL bytes, ids too long to keep), and unsigned tokens whose header
or payload is any JSON. The roster is fetched from the platform through the
admin action, with members and whole answers of any shape.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import jwt
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lti.claims import parse_members
from lti.models import CourseClass
from tests.fuzz.test_no_server_errors import (
    FUZZ,
    assert_no_server_error,
    form_data,
    json_values,
)
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch, login_initiation, register
from tests.lti.platform import LTI, MEMBERSHIP, TestPlatform

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

CLAIMS = [
    "iss",
    "aud",
    "sub",
    "nonce",
    "exp",
    "name",
    "email",
    "picture",
    LTI + "deployment_id",
    LTI + "message_type",
    LTI + "version",
    LTI + "roles",
    LTI + "resource_link",
    LTI + "context",
    LTI + "tool_platform",
    LTI + "launch_presentation",
    LTI + "platformnotificationservice",
    LTI + "custom",
    "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
    "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
]
# Objects whose fields are replaced one level down, where the libraries read them.
NESTED = {
    LTI + "resource_link": ["id", "title", "description"],
    LTI + "context": ["id", "title", "label", "type"],
    LTI + "tool_platform": ["guid", "name", "url", "contact_email"],
    "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": ["scope", "lineitem", "lineitems"],
    "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": ["context_memberships_url"],
}
long_ids = st.builds(lambda ch, n: ch * n, st.sampled_from(["x", "é", "\x00"]), st.integers(1, 600))
claim_values = st.one_of(json_values, long_ids)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def lti_world(db: None, settings: Any) -> Iterator[dict[str, Any]]:
    settings.AXES_FAILURE_LIMIT = 1_000_000
    platform = TestPlatform().start()
    register(platform)
    teacher = Client(raise_request_exception=False)
    assert launch(teacher, platform, sub="teacher-1", roles=INSTRUCTOR).response.status_code == 302
    platform.tool_jwks = Client().get(reverse("lti:jwks")).json()
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    admin_client = Client(raise_request_exception=False)
    admin_client.force_login(admin)
    yield {
        "platform": platform,
        "admin": admin_client,
        "teacher": teacher,
        "course": CourseClass.objects.get(),
    }
    platform.stop()


@example(top={LTI + "resource_link": None}, nested={})
@example(top={LTI + "context": "course-1"}, nested={})
@example(top={}, nested={LTI + "context": {"id": None}})
@example(top={}, nested={LTI + "context": {"title": None}})
@FUZZ
@given(
    top=st.dictionaries(st.sampled_from(CLAIMS), claim_values, max_size=3),
    nested=st.dictionaries(
        st.sampled_from(list(NESTED)),
        st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "title",
                    "label",
                    "type",
                    "guid",
                    "scope",
                    "lineitem",
                    "lineitems",
                    "name",
                    "url",
                    "context_memberships_url",
                    "contact_email",
                    "description",
                ]
            ),
            claim_values,
            max_size=2,
        ),
        max_size=2,
    ),
)
def test_it_never_fails_a_signed_launch_whatever_its_claims(
    lti_world: dict[str, Any], top: dict[str, Any], nested: dict[str, Any]
) -> None:
    platform = lti_world["platform"]
    client = Client(raise_request_exception=False)
    auth = login_initiation(client, platform, "student-1")
    body = platform.claims(sub="student-1", roles=LEARNER, nonce=auth["nonce"])
    for claim, fields in nested.items():
        if isinstance(body.get(claim), dict):
            body[claim] = {**body[claim], **fields}
    body.update(top)
    # Signed as bytes: PyJWT's encode would refuse a non-string "iss" before the tool sees it.
    token = jwt.api_jws.encode(
        json.dumps(body).encode(),
        platform.private_pem,
        algorithm="RS256",
        headers={"kid": platform.kid},
    )
    data = {"id_token": token, "state": auth["state"]}
    assert_no_server_error(client, "post", reverse("lti:launch"), data=data)


@example(header=b'{"alg":"RS256","kid":"platform-key-1"}', payload=b"[1,2,3]")
@example(header=b"[]", payload=b"{}")
@FUZZ
@given(
    header=st.one_of(
        st.just(b'{"alg":"RS256","kid":"platform-key-1"}'),
        json_values.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=40),
    ),
    payload=st.one_of(json_values.map(lambda v: json.dumps(v).encode()), st.binary(max_size=80)),
)
def test_it_never_fails_an_unsigned_launch_after_a_real_login(
    lti_world: dict[str, Any], header: bytes, payload: bytes
) -> None:
    client = Client(raise_request_exception=False)
    auth = login_initiation(client, lti_world["platform"], "student-1")
    token = f"{_b64(header)}.{_b64(payload)}.c2ln"
    data = {"id_token": token, "state": auth["state"]}
    assert_no_server_error(client, "post", reverse("lti:launch"), data=data)


@settings(FUZZ, max_examples=30)
@given(
    data=form_data(
        [
            "iss",
            "login_hint",
            "target_link_uri",
            "client_id",
            "lti_message_hint",
            "id_token",
            "state",
            "title",
            "prompt",
            "assignment",
        ]
    )
)
def test_it_never_fails_the_login_initiation_or_the_link_form(
    lti_world: dict[str, Any], data: dict[str, Any]
) -> None:
    client = Client(raise_request_exception=False)
    assert_no_server_error(client, "post", reverse("lti:login"), data=data)
    assert_no_server_error(client, "get", reverse("lti:login"), data=data)
    assert_no_server_error(client, "post", reverse("lti:launch"), data=data)
    link = reverse(
        "lti:link_assignment", args=[lti_world["course"].context.resource_links.get().pk]
    )
    # As the course's instructor (the launch signed them in): the form is theirs to fill.
    assert_no_server_error(lti_world["teacher"], "post", link, data=data)


members = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"user_id": claim_values},
        optional={
            "roles": st.one_of(claim_values, st.just([MEMBERSHIP + "Learner"])),
            "status": st.one_of(st.sampled_from(["Active", "Inactive", "Deleted"]), claim_values),
            "name": claim_values,
            "email": claim_values,
            "picture": claim_values,
        },
    ),
)


@example(body={"members": [{"user_id": "student-9", "roles": [MEMBERSHIP + "Learner"]}]})
@settings(FUZZ, max_examples=30)
@given(
    body=st.one_of(st.builds(lambda m: {"members": m}, st.lists(members, max_size=4)), json_values)
)
def test_it_never_fails_adding_the_roster(lti_world: dict[str, Any], body: Any) -> None:
    lti_world["platform"].membership_body = body
    data = {"action": "sync_roster", "_selected_action": [lti_world["course"].pk]}
    assert_no_server_error(
        lti_world["admin"], "post", reverse("admin:lti_courseclass_changelist"), data=data
    )


@given(
    body=st.one_of(st.builds(lambda m: {"members": m}, st.lists(members, max_size=6)), json_values)
)
def test_it_reads_any_roster_as_members_or_a_refusal(body: Any) -> None:
    try:
        rows, skipped = parse_members(body)
    except ValueError:
        return
    assert len(rows) + skipped == len(body.get("members", []))
    for row in rows:
        assert isinstance(row["user_id"], str) and 0 < len(row["user_id"]) <= 255
        assert row["status"] in {"Active", "Inactive", "Deleted"}
        assert all(isinstance(role, str) for role in row["roles"])
        assert all(len(row[k]) <= 500 for k in ("name", "given_name", "family_name") if k in row)
