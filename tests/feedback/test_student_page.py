from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from feedback.models import CommentReply
from feedback.services import add_comment, default_rubric, release, set_score, unrelease

pytestmark = pytest.mark.django_db


def _page(submission: Any) -> str:
    return reverse("feedback:submission", args=[submission.pk])


def test_it_shows_nothing_before_release(
    client: Client, teacher: Any, student: Any, submission: Any
) -> None:
    add_comment(author=teacher, submission=submission, element="warrant", text="Secret remark")
    criterion = default_rubric(assignment=submission.assignment).criteria.first()
    set_score(author=teacher, submission=submission, criterion=criterion, level=2)
    client.force_login(student)
    body = client.get(_page(submission)).content.decode()
    assert "has not released feedback" in body
    assert "Secret remark" not in body
    assert "Adequate" not in body
    assert "<textarea" not in body


def test_it_shows_released_comments_on_their_element_and_scores(
    client: Client, teacher: Any, student: Any, submission: Any
) -> None:
    add_comment(author=teacher, submission=submission, element="warrant", text="<b>Why</b>?")
    criterion = default_rubric(assignment=submission.assignment).criteria.first()
    set_score(author=teacher, submission=submission, criterion=criterion, level=2)
    release(author=teacher, submission=submission)
    client.force_login(student)
    body = client.get(_page(submission)).content.decode()
    warrant = body.split('id="el-warrant"')[1].split("</article>")[0]
    assert "&lt;b&gt;Why&lt;/b&gt;?" in warrant
    assert "Cars &lt;b&gt;pollute&lt;/b&gt;" in warrant
    assert "&lt;b&gt;Why" not in body.split('id="el-warrant"')[0]
    assert "Adequate" in body
    assert "Total: 2 of 24 points" in body
    unrelease(author=teacher, submission=submission)
    assert "&lt;b&gt;Why" not in client.get(_page(submission)).content.decode()


def test_it_lets_the_student_reply_once(
    client: Client, teacher: Any, student: Any, submission: Any
) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="Hm")
    release(author=teacher, submission=submission)
    client.force_login(student)
    url = reverse("feedback:reply", args=[comment.pk])
    assert client.post(url, {"text": "I <3 it"}).status_code == 302
    response = client.post(url, {"text": "second"}, follow=True)
    assert "already replied" in response.content.decode()
    assert list(CommentReply.objects.values_list("text", flat=True)) == ["I <3 it"]
    body = client.get(_page(submission)).content.decode()
    assert "I &lt;3 it" in body
    assert f'action="{url}"' not in body


def test_it_refuses_a_reply_before_release(
    client: Client, teacher: Any, student: Any, submission: Any
) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="Hm")
    client.force_login(student)
    response = client.post(
        reverse("feedback:reply", args=[comment.pk]), {"text": "hi"}, follow=True
    )
    assert "once your feedback is released" in response.content.decode()
    assert not CommentReply.objects.exists()


@pytest.mark.parametrize("text", ["", "x" * 2001, "a\x00b"])
def test_it_refuses_an_unusable_reply_without_error(
    client: Client, teacher: Any, student: Any, submission: Any, text: str
) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="Hm")
    release(author=teacher, submission=submission)
    client.force_login(student)
    response = client.post(reverse("feedback:reply", args=[comment.pk]), {"text": text})
    assert response.status_code == 302
    assert not CommentReply.objects.exists()


def test_it_needs_a_csrf_token_to_reply(teacher: Any, student: Any, submission: Any) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="Hm")
    release(author=teacher, submission=submission)
    client = Client(enforce_csrf_checks=True)
    client.force_login(student)
    response = client.post(reverse("feedback:reply", args=[comment.pk]), {"text": "hi"})
    assert response.status_code == 403
    assert not CommentReply.objects.exists()


def test_it_404s_an_unknown_submission(client: Client, student: Any) -> None:
    client.force_login(student)
    assert client.get("/feedback/999999/").status_code == 404
    assert client.get("/feedback/99999999999999999999999/").status_code == 404


def test_it_speaks_spanish(client: Client, teacher: Any, student: Any, submission: Any) -> None:
    client.force_login(student)
    body = client.get(_page(submission), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Tu docente aún no ha publicado los comentarios" in body
    release(author=teacher, submission=submission)
    body = client.get(_page(submission), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Tus puntuaciones" in body
    client.force_login(teacher)
    url = reverse("admin:feedback_submission_feedback", args=[submission.pk])
    body = client.get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Comentarios por elemento" in body
