"""Names and Roles roster sync and grade passback against the test platform."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiResourceLink, LtiUser
from pylti1p3.exception import LtiException

from classroom.models import Membership
from lti import services
from lti.models import CourseClass, LinkedAssignment
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch
from tests.lti.platform import MEMBERSHIP


def _set_up(platform):
    """An instructor launches, links a new assignment; the platform trusts the tool's keys."""
    instructor = Client()
    launch(instructor, platform, sub="teacher-1", roles=INSTRUCTOR)
    resource_link = LtiResourceLink.objects.get(id_on_platform="link-1")
    instructor.post(
        reverse("lti:link_assignment", args=[resource_link.pk]),
        {"title": "Uniforms", "prompt": "Should schools require uniforms?"},
    )
    link = LinkedAssignment.objects.get()
    platform.tool_jwks = Client().get(reverse("lti:jwks")).json()
    return link


def _member(sub: str, role: str, status: str = "Active") -> dict:
    return {
        "user_id": sub,
        "status": status,
        "name": f"Member {sub}",
        "given_name": "Member",
        "family_name": sub,
        "email": f"{sub}@school.example",
        "roles": [MEMBERSHIP + role],
    }


def test_it_adds_the_nrps_roster_to_the_class(registration, platform):
    link = _set_up(platform)
    platform.members = [
        _member("teacher-1", "Instructor"),
        _member("student-1", "Learner"),
        _member("student-2", "Learner"),
        _member("gone-1", "Learner", status="Inactive"),
    ]
    course = CourseClass.objects.get()
    assert services.sync_roster(course=course) == services.RosterSync(added=2, skipped=0)
    students = {m.student.email for m in Membership.objects.filter(classroom=course.classroom)}
    assert students == {"student-1@school.example", "student-2@school.example"}
    assert not LtiUser.objects.filter(sub="gone-1", auth_user__isnull=False).exists()
    assert course.classroom == link.assignment.classroom
    # The platform saw a client_credentials grant with the tool's signed assertion.
    grant = platform.token_requests[-1]
    assert grant["grant_type"] == "client_credentials"
    assert "contextmembership.readonly" in grant["scope"]
    # Synced again: nobody is added twice.
    assert services.sync_roster(course=course).added == 0
    # A student from the roster who launches later keeps the same account.
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    assert LtiUser.objects.get(sub="student-1").auth_user.memberships.count() == 1


def test_it_sends_a_released_score_to_the_lms_gradebook(registration, platform):
    link = _set_up(platform)
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    student = LtiUser.objects.get(sub="student-1").auth_user
    sent = services.send_score(assignment=link.assignment, student=student, score=7.5, max_score=10)
    assert sent == 1
    [received] = platform.scores
    assert received["lineitem"] == platform.url("/lineitems/1")
    assert received["content_type"].startswith("application/vnd.ims.lis.v1.score+json")
    score = received["score"]
    assert score["userId"] == "student-1"
    assert score["scoreGiven"] == 7.5 and score["scoreMaximum"] == 10
    assert score["activityProgress"] == "Completed" and score["gradingProgress"] == "FullyGraded"


def test_it_sends_nothing_for_a_student_without_an_lms_account(registration, platform):
    link = _set_up(platform)
    from django.contrib.auth import get_user_model

    local = get_user_model().objects.create_user(username="local")
    assert services.send_score(assignment=link.assignment, student=local, score=1, max_score=2) == 0
    assert platform.scores == []


def test_it_raises_when_the_platform_refuses_the_tools_key(registration, platform):
    link = _set_up(platform)
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    student = LtiUser.objects.get(sub="student-1").auth_user
    platform.tool_jwks = {"keys": []}  # the platform does not know the tool's key
    with pytest.raises(LtiException):
        services.send_score(assignment=link.assignment, student=student, score=1, max_score=2)
    assert platform.scores == []


def test_it_consumes_a_nonce_once(db):
    assert services.consume_nonce(issuer="https://lms", nonce="n-1")
    assert not services.consume_nonce(issuer="https://lms", nonce="n-1")
    assert services.consume_nonce(issuer="https://other", nonce="n-1")


def test_it_syncs_the_roster_from_the_admin_action(registration, platform, admin_client):
    _set_up(platform)
    platform.members = [_member("student-7", "Learner")]
    course = CourseClass.objects.get()
    response = admin_client.post(
        reverse("admin:lti_courseclass_changelist"),
        {"action": "sync_roster", "_selected_action": [course.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "1 student added to Philosophy 101." in response.content.decode()
    assert Membership.objects.filter(classroom=course.classroom).count() == 1


def test_it_hides_other_instructors_courses_in_the_admin(registration, platform):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from classroom.services import make_instructor

    _set_up(platform)
    course = CourseClass.objects.get()
    view = Permission.objects.get(codename="view_courseclass")
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    other = make_instructor(user=get_user_model().objects.create_user(username="other-teacher"))
    url = reverse("admin:lti_courseclass_change", args=[course.pk])
    for user, expected in ((teacher, 200), (other, 302)):
        user.user_permissions.add(view)
        client = Client()
        client.force_login(user)
        assert client.get(url).status_code == expected  # 302: "doesn't exist" to the index
        listing = client.get(reverse("admin:lti_courseclass_changelist")).content.decode()
        assert ("Philosophy 101" in listing) is (expected == 200)
