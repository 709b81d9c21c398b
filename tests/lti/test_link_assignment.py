from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from lti_tool.models import LtiResourceLink

from classroom.models import Assignment
from lti.models import LinkedAssignment
from tests.lti.conftest import INSTRUCTOR, LEARNER, launch


def _link_url(platform) -> tuple[Client, str]:
    instructor = Client()
    launch(instructor, platform, sub="teacher-1", roles=INSTRUCTOR)
    link = LtiResourceLink.objects.get(id_on_platform="link-1")
    return instructor, reverse("lti:link_assignment", args=[link.pk])


def test_it_links_an_existing_assignment(registration, platform):
    instructor, url = _link_url(platform)
    classroom = LtiResourceLink.objects.get().context.course_class.classroom
    existing = Assignment.objects.create(classroom=classroom, title="Old", prompt="P")
    assert instructor.post(url, {"assignment": existing.pk}).status_code == 302
    assert LinkedAssignment.objects.get().assignment == existing


def test_it_asks_for_a_title_and_prompt(registration, platform):
    instructor, url = _link_url(platform)
    page = instructor.post(url, {"title": "", "prompt": ""})
    assert page.status_code == 200
    assert "give a title and a prompt" in page.content.decode()
    assert not LinkedAssignment.objects.exists()


def test_it_hides_the_link_from_others(registration, platform):
    _instructor, url = _link_url(platform)
    other = get_user_model().objects.create_user(username="other", is_staff=True)
    client = Client()
    client.force_login(other)
    assert client.get(url).status_code == 404
    student = Client()
    launch(student, platform, sub="student-1", roles=LEARNER)  # refused: no assignment yet
    assert student.get(url).status_code in (302, 404)
    assert Client().get(url).status_code == 302  # anonymous: to sign-in
    assert client.get(reverse("lti:link_assignment", args=[9999])).status_code == 404
