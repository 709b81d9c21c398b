from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from classroom.models import Assignment, Classroom
from feedback.models import Comment, Release, Score
from feedback.services import add_comment, default_rubric

pytestmark = pytest.mark.django_db


def _page(submission: Any) -> str:
    return reverse("admin:feedback_submission_feedback", args=[submission.pk])


def test_it_shows_the_instructor_the_submission_with_escaped_text(
    client: Client, teacher: Any, submission: Any
) -> None:
    add_comment(author=teacher, submission=submission, element="warrant", text="<i>why</i>?")
    client.force_login(teacher)
    response = client.get(_page(submission))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Cars &lt;b&gt;pollute&lt;/b&gt;" in body
    assert "&lt;i&gt;why&lt;/i&gt;?" in body
    assert "Overall coherence" in body
    assert "Not released" in body


def test_it_offers_the_elements_in_the_teachers_language(
    client: Client, teacher: Any, submission: Any
) -> None:
    from django.conf import settings

    submission.argument.language = "en"
    submission.argument.save()
    client.force_login(teacher)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    body = client.get(_page(submission)).content.decode()
    assert '<option value="claim">Afirmación</option>' in body
    assert ">Claim</option>" not in body


def test_it_adds_a_comment(client: Client, teacher: Any, submission: Any) -> None:
    client.force_login(teacher)
    url = reverse("admin:feedback_submission_comment", args=[submission.pk])
    response = client.post(url, {"element": "grounds", "message": "", "text": "Cite it."})
    assert response.status_code == 302
    comment = Comment.objects.get()
    assert (comment.element, comment.text, comment.author) == ("grounds", "Cite it.", teacher)


@pytest.mark.parametrize(
    "data",
    [
        {"element": "nope", "text": "x"},
        {"element": "claim", "text": ""},
        {"element": "claim", "text": "x", "message": "99999999999999999999999"},
        {"element": "claim", "text": "a\x00b"},
    ],
)
def test_it_refuses_a_bad_comment_with_a_form_error(
    client: Client, teacher: Any, submission: Any, data: dict
) -> None:
    client.force_login(teacher)
    url = reverse("admin:feedback_submission_comment", args=[submission.pk])
    response = client.post(url, data)
    assert response.status_code == 400
    assert not Comment.objects.exists()


def test_it_saves_scores_and_ignores_nonsense(
    client: Client, teacher: Any, submission: Any
) -> None:
    criteria = list(default_rubric(assignment=submission.assignment).criteria.all())
    client.force_login(teacher)
    url = reverse("admin:feedback_submission_scores", args=[submission.pk])
    data = {f"criterion-{criteria[0].pk}": "3", f"criterion-{criteria[1].pk}": "9"}
    data[f"criterion-{criteria[2].pk}"] = "x" * 50
    client.post(url, data)
    assert list(Score.objects.values_list("criterion_id", "level")) == [(criteria[0].pk, 3)]
    page = client.get(_page(submission)).content.decode()
    assert "Total: 3 of 24 points" in page


def test_it_releases_unreleases_and_releases_all(
    client: Client, teacher: Any, submission: Any, other_submission: Any
) -> None:
    client.force_login(teacher)
    client.post(reverse("admin:feedback_submission_release", args=[submission.pk]))
    assert Release.objects.filter(submission=submission).exists()
    client.post(reverse("admin:feedback_submission_unrelease", args=[submission.pk]))
    assert not Release.objects.exists()
    url = reverse("admin:feedback_assignment_release_all", args=[submission.assignment.pk])
    response = client.post(url)
    assert response.status_code == 302
    assert Release.objects.count() == 2


def test_it_lists_the_assignment_and_downloads_grades(
    client: Client, teacher: Any, submission: Any
) -> None:
    client.force_login(teacher)
    assignment = submission.assignment
    page = client.get(reverse("admin:feedback_assignment_feedback", args=[assignment.pk]))
    assert page.status_code == 200
    assert _page(submission) in page.content.decode()
    response = client.get(reverse("admin:feedback_assignment_grades_csv", args=[assignment.pk]))
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("student,Claim,Grounds,")
    assert lines[1].startswith("ana,")


def test_it_refuses_a_get_on_the_write_urls(client: Client, teacher: Any, submission: Any) -> None:
    client.force_login(teacher)
    response = client.get(reverse("admin:feedback_submission_release", args=[submission.pk]))
    assert response.status_code == 405
    assert not Release.objects.exists()


def test_it_needs_a_csrf_token(teacher: Any, submission: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(teacher)
    url = reverse("admin:feedback_submission_comment", args=[submission.pk])
    response = client.post(url, {"element": "claim", "text": "x"})
    assert response.status_code == 403
    assert not Comment.objects.exists()
    for name in ("feedback_submission_release", "feedback_submission_scores"):
        assert client.post(reverse(f"admin:{name}", args=[submission.pk])).status_code == 403
    assert not Release.objects.exists()


def test_it_offers_only_taught_assignments_in_the_rubric_admin(
    client: Client, other_teacher: Any, submission: Any, django_user_model: Any
) -> None:
    mine = Classroom.objects.create(name="Other class")
    mine.instructors.add(other_teacher)
    own = Assignment.objects.create(classroom=mine, title="Own", prompt="p")
    default_rubric(assignment=submission.assignment)
    other_teacher.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="feedback", codename__endswith="rubric")
    )
    client.force_login(other_teacher)
    listing = client.get(reverse("admin:feedback_rubric_changelist")).content.decode()
    assert "City centres" not in listing
    form = client.get(reverse("admin:feedback_rubric_add")).content.decode()
    assert f'value="{own.pk}"' in form
    assert f'value="{submission.assignment.pk}"' not in form


def test_it_edits_rubric_levels_as_lines_not_json(
    client: Client, teacher: Any, submission: Any
) -> None:
    rubric = default_rubric(assignment=submission.assignment)
    criteria = list(rubric.criteria.order_by("order", "id"))
    teacher.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="feedback", codename__endswith="rubric")
    )
    client.force_login(teacher)
    url = reverse("admin:feedback_rubric_change", args=[rubric.pk])
    page = client.get(url).content.decode()
    assert "Missing = 0\nWeak = 1\nAdequate = 2\nStrong = 3" in page and '"points"' not in page
    data = {
        "assignment": submission.assignment.pk,
        "criteria-TOTAL_FORMS": str(len(criteria)),
        "criteria-INITIAL_FORMS": str(len(criteria)),
    }
    for n, criterion in enumerate(criteria):
        data |= {
            f"criteria-{n}-id": criterion.pk,
            f"criteria-{n}-rubric": rubric.pk,
            f"criteria-{n}-order": criterion.order,
            f"criteria-{n}-name": criterion.name,
            f"criteria-{n}-levels": "No = 0\nYes = 5" if n == 0 else "Missing = 0\nStrong = 3",
        }
    assert client.post(url, data).status_code == 302
    criteria[0].refresh_from_db()
    assert criteria[0].levels == [{"label": "No", "points": 0}, {"label": "Yes", "points": 5}]
    data["criteria-0-levels"] = "No = zero"
    refused = client.post(url, data)
    assert refused.status_code == 200 and "Write one level per line" in refused.content.decode()
    assert "No = zero" in refused.content.decode()  # what was typed is shown back
    criteria[0].refresh_from_db()
    assert criteria[0].levels[1]["points"] == 5


def test_it_shows_the_default_rubric_in_the_readers_language_and_an_edited_one_as_written(
    client: Client, teacher: Any, submission: Any
) -> None:
    from django.conf import settings

    submission.assignment.language = "en"
    submission.assignment.save()
    rubric = default_rubric(assignment=submission.assignment)  # seeded in English
    edited = rubric.criteria.get(name="Grounds")
    edited.name = "Sources cited"
    edited.save()
    client.force_login(teacher)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    body = client.get(_page(submission)).content.decode()
    assert "Coherencia general" in body and "Overall coherence" not in body
    assert ">Afirmación</label>" in body and ">Claim</label>" not in body
    assert ">Ausente (0)</option>" in body and ">Sólido (3)</option>" in body
    assert ">Strong (3)</option>" not in body
    assert ">Sources cited</label>" in body  # the instructor's own words stay
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(_page(submission)).content.decode()
    assert "Overall coherence" in english and ">Strong (3)</option>" in english
