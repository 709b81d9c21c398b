"""The discussions' admin: an instructor starts one only in a class they teach; a post is hidden
only with a reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from classroom.models import Classroom
from discussions.models import Discussion, Post
from discussions.services import create_post

pytestmark = pytest.mark.django_db


# The teams inline's management form: none added on the page.
TEAMS_MANAGEMENT = {
    "teams-TOTAL_FORMS": "0",
    "teams-INITIAL_FORMS": "0",
    "teams-MIN_NUM_FORMS": "0",
    "teams-MAX_NUM_FORMS": "1000",
}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_it_starts_a_discussion_only_in_a_class_the_instructor_teaches(
    classroom: Any, teacher: Any, other_teacher: Any
) -> None:
    data = {
        "title": "Uniforms",
        "thesis": "Schools should drop uniforms.",
        "due_at_0": "",
        "due_at_1": "",
        **TEAMS_MANAGEMENT,
    }
    elsewhere = Classroom.objects.get(name="Elsewhere")
    response = _client(teacher).post(
        "/admin/discussions/discussion/add/", {**data, "classroom": elsewhere.pk}
    )
    assert response.status_code == 200  # the form again: not a choice
    assert not Discussion.objects.exists()
    response = _client(teacher).post(
        "/admin/discussions/discussion/add/", {**data, "classroom": classroom.pk}
    )
    assert response.status_code == 302
    assert Discussion.objects.get().created_by == teacher
    assert b"Uniforms" not in _client(other_teacher).get("/admin/discussions/discussion/").content


def test_it_hides_a_post_in_the_admin_only_with_a_reason(
    discussion: Any, teacher: Any, student: Any
) -> None:
    post = create_post(discussion=discussion, author=student, claim="c", premises=["p"], side="for")
    url = f"/admin/discussions/post/{post.pk}/change/"
    assert _client(teacher).post(url, {"hidden": "on", "hidden_reason": ""}).status_code == 200
    assert not Post.objects.get().hidden
    assert (
        _client(teacher).post(url, {"hidden": "on", "hidden_reason": "Off topic"}).status_code
        == 302
    )
    post = Post.objects.get()
    assert (post.hidden, post.hidden_reason, post.claim) == (True, "Off topic", "c")
