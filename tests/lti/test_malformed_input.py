"""Launch and roster input that is not what LTI 1.3 says: a refusal or a sentence, never a 5xx."""

from __future__ import annotations

import base64
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiUser

from classroom.models import Classroom, Membership
from lti.models import CourseClass
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch, login_initiation
from tests.lti.platform import LTI, MEMBERSHIP


def _b64(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()


def _refused(response) -> None:
    assert response.status_code == 403, response.status_code
    assert "The launch from your course did not work" in response.content.decode()
    assert "_auth_user_id" not in response.wsgi_request.session


@pytest.mark.parametrize("payload", [[1, 2, 3], "a string", 7, None, {"iss": ["a", "list"]}])
def test_it_refuses_an_id_token_whose_payload_is_not_an_object(registration, platform, payload):
    client = Client(raise_request_exception=False)
    auth = login_initiation(client, platform, "student-1")
    token = f"{_b64({'alg': 'RS256', 'kid': platform.kid})}.{_b64(payload)}.c2ln"
    _refused(client.post(reverse("lti:launch"), {"id_token": token, "state": auth["state"]}))


def test_it_refuses_an_id_token_whose_header_is_an_array(registration, platform):
    client = Client(raise_request_exception=False)
    auth = login_initiation(client, platform, "student-1")
    body = platform.claims(sub="s", roles=LEARNER, nonce=auth["nonce"])
    token = f"{_b64(['RS256'])}.{_b64(body)}.c2ln"
    _refused(client.post(reverse("lti:launch"), {"id_token": token, "state": auth["state"]}))


@pytest.mark.parametrize(
    "claims",
    [
        {LTI + "resource_link": None},
        {LTI + "resource_link": "link-1"},
        {LTI + "resource_link": {"id": 7}},
        {LTI + "resource_link": {"title": "no id"}},
        {LTI + "context": "course-1"},
        {LTI + "context": {"id": ["course-1"]}},
        {LTI + "context": {"id": "c" * 300}},
        {LTI + "roles": "Instructor"},
        {LTI + "roles": None},
        {"aud": []},
        {"sub": 12},
        {"sub": "a\x00b"},
        {"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": ["scope"]},
        {"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {}},
        {LTI + "tool_platform": {"name": "no guid"}},
        {LTI + "platformnotificationservice": "yes"},
    ],
    ids=lambda claims: repr(claims)[:60],
)
def test_it_refuses_a_signed_launch_with_a_malformed_claim(registration, platform, claims):
    client = Client(raise_request_exception=False)
    auth = login_initiation(client, platform, "teacher-1")
    body = {**platform.claims(sub="teacher-1", roles=INSTRUCTOR, nonce=auth["nonce"]), **claims}
    token = platform.sign(body)
    _refused(client.post(reverse("lti:launch"), {"id_token": token, "state": auth["state"]}))
    assert not Classroom.objects.exists()


def test_it_keeps_a_launch_whose_display_text_is_too_long(registration, platform):
    result = launch(
        Client(),
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        name="N" * 900,
        picture="https://pictures.example/" + "p" * 400,
        **{LTI + "context": {"id": "course-1", "title": "T" * 900, "label": "L" * 400}},
    )
    assert result.response.status_code == 302
    assert len(Classroom.objects.get().name) <= 200
    lti_user = LtiUser.objects.get(sub="teacher-1")
    assert lti_user.name == "N" * 500 and lti_user.picture_url == ""


def test_it_takes_null_display_text_as_absent(registration, platform):
    # Seen by the fuzz test: a context whose title is null gave a 500 (a NOT NULL column).
    result = launch(
        Client(),
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        given_name=None,
        email=None,
        picture=None,
        **{
            LTI + "context": {"id": "course-1", "title": None, "label": None},
            LTI + "resource_link": {"id": "link-1", "title": None},
        },
    )
    assert result.response.status_code == 302
    assert Classroom.objects.count() == 1


def _roster_action(client: Client, course: CourseClass):
    return client.post(
        reverse("admin:lti_courseclass_changelist"),
        {"action": "sync_roster", "_selected_action": [course.pk]},
        follow=True,
    )


@pytest.fixture
def course_with_roster(registration, platform):
    launch(Client(), platform, sub="teacher-1", roles=INSTRUCTOR)
    platform.tool_jwks = Client().get(reverse("lti:jwks")).json()
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    client = Client(raise_request_exception=False)
    client.force_login(admin)
    return client, CourseClass.objects.get()


def test_it_takes_a_roster_member_without_status_as_active(course_with_roster, platform):
    client, course = course_with_roster
    platform.members = [
        {"user_id": "student-1", "roles": [MEMBERSHIP + "Learner"], "name": "Ana"},
        {"user_id": "student-2", "roles": [MEMBERSHIP + "Learner"], "status": "Inactive"},
    ]
    response = _roster_action(client, course)
    assert response.status_code == 200
    assert "1 student added" in response.content.decode()
    members = Membership.objects.filter(classroom=course.classroom)
    assert [m.student.lti_users.get().sub for m in members] == ["student-1"]


def test_it_skips_roster_members_that_are_not_members_and_says_so(course_with_roster, platform):
    client, course = course_with_roster
    platform.members = [
        {"user_id": "student-1", "roles": [MEMBERSHIP + "Learner"]},
        "not a member",
        {"roles": [MEMBERSHIP + "Learner"]},
        {"user_id": "student-3", "roles": "Learner"},
        {"user_id": "student-4", "roles": [MEMBERSHIP + "Learner"], "status": "Sleeping"},
        None,
    ]
    response = _roster_action(client, course)
    page = response.content.decode()
    assert response.status_code == 200
    assert "1 student added" in page
    assert "5 members of the LMS roster could not be read and were skipped" in page


@pytest.mark.parametrize("body", [[1, 2], "members", {"members": "all"}, {"members": None}])
def test_it_says_so_when_the_roster_is_not_a_roster(course_with_roster, platform, body):
    client, course = course_with_roster
    platform.membership_body = body
    response = _roster_action(client, course)
    assert response.status_code == 200
    assert "The LMS did not send the roster" in response.content.decode()
    assert not Membership.objects.filter(classroom=course.classroom).exists()
