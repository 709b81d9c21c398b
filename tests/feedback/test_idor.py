"""Every feedback URL walked as the owner, another student, another instructor, anonymous."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from feedback.models import Comment, Release, Score
from feedback.services import add_comment, release

pytestmark = pytest.mark.django_db

SUBMISSION_URLS = [
    ("feedback_submission_feedback", "get"),
    ("feedback_submission_comment", "post"),
    ("feedback_submission_scores", "post"),
    ("feedback_submission_release", "post"),
    ("feedback_submission_unrelease", "post"),
]
ASSIGNMENT_URLS = [
    ("feedback_assignment_feedback", "get"),
    ("feedback_assignment_release_all", "post"),
    ("feedback_assignment_grades_csv", "get"),
]


def _admin_urls(submission: Any) -> list[tuple[str, str]]:
    urls = [(reverse(f"admin:{n}", args=[submission.pk]), m) for n, m in SUBMISSION_URLS]
    urls += [
        (reverse(f"admin:{n}", args=[submission.assignment.pk]), m) for n, m in ASSIGNMENT_URLS
    ]
    return urls


def _fill(teacher: Any, submission: Any) -> Any:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="x")
    return comment


def test_it_gives_another_instructor_404_on_every_admin_url(
    client: Client, teacher: Any, other_teacher: Any, submission: Any
) -> None:
    _fill(teacher, submission)
    client.force_login(other_teacher)
    for url, method in _admin_urls(submission):
        data = {"element": "claim", "text": "mine", "criterion-1": "1"}
        response = getattr(client, method)(url, data) if method == "post" else client.get(url)
        assert response.status_code == 404, url
    assert Comment.objects.count() == 1
    assert not Release.objects.exists()
    assert not Score.objects.exists()


@pytest.mark.parametrize("who", ["student", "other_student", None])
def test_it_sends_students_and_anonymous_to_the_admin_sign_in(
    client: Client, teacher: Any, submission: Any, who: str | None, request: Any
) -> None:
    _fill(teacher, submission)
    if who:
        client.force_login(request.getfixturevalue(who))
    for url, method in _admin_urls(submission):
        response = getattr(client, method)(url, {"element": "claim", "text": "mine"})
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("admin:login")), url
    assert Comment.objects.count() == 1
    assert not Release.objects.exists()


def test_it_shows_the_student_page_only_to_its_student(
    client: Client,
    teacher: Any,
    other_teacher: Any,
    student: Any,
    other_student: Any,
    submission: Any,
) -> None:
    comment = _fill(teacher, submission)
    release(author=teacher, submission=submission)
    page = reverse("feedback:submission", args=[submission.pk])
    reply = reverse("feedback:reply", args=[comment.pk])
    for user in (other_student, other_teacher, teacher):
        client.force_login(user)
        assert client.get(page).status_code == 404
        assert client.post(reply, {"text": "hi"}).status_code == 404
    client.logout()
    for url in (page, reply):
        response = client.post(url) if url == reply else client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    client.force_login(student)
    assert client.get(page).status_code == 200
    assert not hasattr(Comment.objects.get(), "reply")


@pytest.mark.parametrize("pk", ["0", "99999999999999999999999"])
def test_it_404s_unknown_ids_on_every_admin_url(client: Client, teacher: Any, pk: str) -> None:
    client.force_login(teacher)
    for name, method in SUBMISSION_URLS + ASSIGNMENT_URLS:
        url = reverse(f"admin:{name}", args=[1]).replace("/1/", f"/{pk}/")
        assert getattr(client, method)(url).status_code == 404, url
