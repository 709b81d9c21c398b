from __future__ import annotations

import time

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiResourceLink, LtiUser

from classroom.models import Assignment, Classroom, Membership, Submission
from lti.models import CourseClass, LinkedAssignment
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch
from tests.lti.platform import new_private_pem


def _instructor_sets_up(platform) -> Assignment:
    instructor = Client()
    result = launch(instructor, platform, sub="teacher-1", roles=INSTRUCTOR)
    link = LtiResourceLink.objects.get(id_on_platform="link-1")
    assert result.response["Location"] == reverse("lti:link_assignment", args=[link.pk])
    response = instructor.post(
        reverse("lti:link_assignment", args=[link.pk]),
        {"title": "School uniforms", "prompt": "Should schools require uniforms?"},
    )
    assert response.status_code == 302
    return Assignment.objects.get(title="School uniforms")


def test_it_creates_the_class_on_an_instructors_first_launch(registration, platform):
    client = Client()
    result = launch(client, platform, sub="teacher-1", roles=INSTRUCTOR)
    assert result.response.status_code == 302
    classroom = Classroom.objects.get(name="Philosophy 101")
    teacher = LtiUser.objects.get(sub="teacher-1").auth_user
    assert list(classroom.instructors.all()) == [teacher]
    assert teacher.is_staff and not teacher.is_superuser
    assert teacher.groups.filter(name="Instructors").exists()
    assert CourseClass.objects.get().classroom == classroom
    # The unmapped link offers the instructor to pick or create its assignment.
    page = client.get(result.response["Location"])
    assert page.status_code == 200
    assert "Which assignment does this link open?" in page.content.decode()


def test_it_launches_a_learner_straight_into_the_assignment(registration, platform):
    assignment = _instructor_sets_up(platform)
    link = LinkedAssignment.objects.get()
    assert link.assignment == assignment
    assert link.lineitem_url == platform.url("/lineitems/1")

    student = Client()
    result = launch(student, platform, sub="student-1", roles=LEARNER)
    user = LtiUser.objects.get(sub="student-1").auth_user
    assert user.email == "student-1@school.example" and not user.is_staff
    assert Membership.objects.filter(classroom=assignment.classroom, student=user).exists()
    submission = Submission.objects.get(assignment=assignment, student=user)
    assert result.response.status_code == 302
    assert result.response["Location"] == reverse(
        "coach:argument_detail", args=[submission.argument_id]
    )
    # Signed in: the argument page opens for them.
    assert student.get(result.response["Location"]).status_code == 200


def test_it_reuses_the_account_on_a_second_launch(registration, platform):
    _instructor_sets_up(platform)
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    launch(Client(), platform, sub="student-1", roles=LEARNER)
    assert LtiUser.objects.filter(sub="student-1").count() == 1
    assert get_user_model().objects.filter(lti_users__sub="student-1").count() == 1


def test_it_refuses_a_learner_before_the_instructor_set_up_the_course(registration, platform):
    result = launch(Client(), platform, sub="student-1", roles=LEARNER)
    assert result.response.status_code == 403
    assert "Ask your instructor to open it" in result.response.content.decode()
    assert not Classroom.objects.exists()


def _assert_refused(response, text="could not be verified", caplog=None, reason="") -> None:
    assert response.status_code == 403
    body = response.content.decode()
    assert "The launch from your course did not work" in body and text in body
    assert "_auth_user_id" not in response.wsgi_request.session
    if caplog is not None:
        # Refused for the reason under test, not for another one on the way.
        logged = [str(r.exc_info[1]) for r in caplog.records if r.exc_info]
        assert any(reason in message for message in logged), logged


def test_it_refuses_a_bad_signature(registration, platform, caplog):
    result = launch(
        Client(), platform, sub="student-1", roles=INSTRUCTOR, private_pem=new_private_pem()
    )
    _assert_refused(result.response, caplog=caplog, reason="Signature verification failed")
    assert not Classroom.objects.exists()


def test_it_refuses_a_replayed_nonce(registration, platform):
    client = Client()
    first = launch(client, platform, sub="teacher-1", roles=INSTRUCTOR)
    assert first.response.status_code == 302
    again = client.post(reverse("lti:launch"), {"id_token": first.id_token, "state": first.state})
    _assert_refused(again, "already used")


def test_it_refuses_an_expired_token(registration, platform, caplog):
    past = int(time.time()) - 3600
    result = launch(Client(), platform, sub="teacher-1", roles=INSTRUCTOR, iat=past - 300, exp=past)
    _assert_refused(result.response, caplog=caplog, reason="expired")


def test_it_refuses_a_wrong_audience(registration, platform, caplog):
    result = launch(Client(), platform, sub="teacher-1", roles=INSTRUCTOR, aud="another-tool")
    _assert_refused(result.response, caplog=caplog, reason="Registration not found")


def test_it_refuses_an_unknown_deployment(registration, platform):
    result = launch(
        Client(),
        platform,
        sub="teacher-1",
        roles=INSTRUCTOR,
        **{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "unknown-9"},
    )
    _assert_refused(result.response, "not enabled here")
    assert not Classroom.objects.exists()


def test_it_refuses_a_launch_without_login_initiation(registration, platform, caplog):
    token = platform.sign(platform.claims(sub="x", roles=LEARNER, nonce="n"))
    response = Client().post(reverse("lti:launch"), {"id_token": token, "state": "made-up"})
    _assert_refused(response, caplog=caplog, reason="State not found")


def test_it_refuses_garbage_with_a_4xx(registration, platform):
    client = Client()
    assert client.post(reverse("lti:launch"), {"id_token": "a.b", "state": "s"}).status_code == 403
    assert client.post(reverse("lti:launch"), {}).status_code == 403
    assert client.get(reverse("lti:launch")).status_code == 405
    assert client.get(reverse("lti:login")).status_code == 400
    response = client.get(
        reverse("lti:login"),
        {"iss": "https://unknown.example", "login_hint": "x", "target_link_uri": "http://t/"},
    )
    assert response.status_code == 403


def test_it_shows_the_refusal_in_spanish(registration, platform):
    client = Client(headers={"accept-language": "es"})
    result = launch(client, platform, sub="teacher-1", roles=INSTRUCTOR, aud="another-tool")
    assert result.response.status_code == 403
    assert "El inicio desde tu curso no funcionó" in result.response.content.decode()


def test_it_is_csrf_exempt_only_on_launch_and_login(registration, platform):
    client = Client(enforce_csrf_checks=True)
    result = launch(client, platform, sub="teacher-1", roles=INSTRUCTOR)
    assert result.response.status_code == 302
    response = client.post(result.response["Location"], {"title": "t", "prompt": "p"})
    assert response.status_code == 403  # the pick-an-assignment form needs its token
    assert not Assignment.objects.exists()


def test_it_launches_a_learner_into_a_linked_class_discussion(registration, platform):
    from discussions.grading import sync_assignment
    from discussions.models import Discussion

    assignment = _instructor_sets_up(platform)
    # The instructor links a graded class discussion of the course's class instead.
    discussion = Discussion.objects.create(
        classroom=assignment.classroom, title="Uniforms", thesis="Schools should drop uniforms."
    )
    sync_assignment(discussion=discussion, graded=True)
    LinkedAssignment.objects.update(assignment=discussion.assignment)
    student = Client()
    result = launch(student, platform, sub="student-1", roles=LEARNER)
    # No coach argument is made: the launch leads to the discussion's page.
    assert not Submission.objects.filter(assignment=discussion.assignment).exists()
    page = student.get(result.response["Location"], follow=True)
    assert page.redirect_chain[-1][0] == f"/discussions/{discussion.pk}/"
    assert page.status_code == 200
