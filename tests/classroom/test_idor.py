"""Every classroom URL as its owner, another student, another instructor and anonymous."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from classroom.models import Membership
from classroom.services import start_submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(
    teacher: Any, other_teacher: Any, student: Any, other_student: Any, assignment: Any
) -> dict[str, Any]:
    submission = start_submission(assignment=assignment, student=student)
    # The other student is in another teacher's class: a member somewhere, not here.
    from classroom.models import Classroom

    elsewhere = Classroom.objects.create(name="Elsewhere")
    elsewhere.instructors.add(other_teacher)
    Membership.objects.create(classroom=elsewhere, student=other_student)
    return {
        "a": assignment.pk,
        "c": assignment.classroom_id,
        "s": submission.pk,
        "arg": submission.argument_id,
        "users": {
            "student": student,
            "teacher": teacher,
            "other_student": other_student,
            "other_teacher": other_teacher,
            "anonymous": None,
        },
    }


STUDENT_URLS = [
    ("get", "/assignments/{a}/"),
    ("post", "/assignments/{a}/start/"),
]
ARGUMENT_URLS = [
    ("post", "/coach/{arg}/advance/"),
    ("post", "/api/arguments/{arg}/advance"),
]
ADMIN_URLS = [
    ("get", "/admin/classroom/classroom/{c}/change/"),
    ("get", "/admin/classroom/classroom/{c}/history/"),
    ("get", "/admin/classroom/classroom/{c}/add-students/"),
    ("get", "/admin/classroom/classroom/{c}/analytics/"),
    ("post", "/admin/classroom/classroom/{c}/add-students/"),
    ("get", "/admin/classroom/assignment/{a}/change/"),
    ("get", "/admin/classroom/assignment/{a}/grid/"),
    ("get", "/admin/classroom/assignment/{a}/grid.csv"),
    ("get", "/admin/classroom/assignment/{a}/analytics/"),
    ("get", "/admin/classroom/assignment/{a}/work/{s}/"),
    ("get", "/admin/classroom/submission/{s}/change/"),
]


def _call(user: Any, method: str, url: str) -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    if method == "get":
        return client.get(url)
    return client.post(url, data=json.dumps({"lines": "bea"}), content_type="application/json")


@pytest.mark.parametrize(("method", "url"), STUDENT_URLS + ARGUMENT_URLS)
def test_it_shows_a_students_pages_only_to_the_student(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    assert _call(users["student"], method, url).status_code in (200, 302, 400)
    for who in ("other_student", "teacher", "other_teacher"):
        # An instructor reads the work in the admin, not through the student's pages.
        assert _call(users[who], method, url).status_code == 404, who
    anonymous = _call(None, method, url)
    assert anonymous.status_code in (302, 401)
    if anonymous.status_code == 302:
        assert "/login" in anonymous["Location"]


@pytest.mark.parametrize(("method", "url"), ADMIN_URLS)
def test_it_shows_a_class_only_to_its_instructors(world: dict, method: str, url: str) -> None:
    url = url.format(**world)
    users = world["users"]
    assert _call(users["teacher"], method, url).status_code == 200
    assert _call(users["other_teacher"], method, url).status_code == 404
    for who in ("student", "other_student", "anonymous"):
        response = _call(users[who], method, url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], who


def test_it_adds_nobody_to_a_class_through_another_instructors_form(world: dict) -> None:
    client = Client()
    client.force_login(world["users"]["other_teacher"])
    url = "/admin/classroom/classroom/{c}/add-students/".format(**world)
    assert client.post(url, {"lines": "bea"}).status_code == 404
    assert not Membership.objects.filter(classroom_id=world["c"], student__username="bea").exists()


def test_it_refuses_every_classroom_post_without_csrf(world: dict) -> None:
    for who, method_url in (
        ("student", "/assignments/{a}/start/"),
        ("student", "/coach/{arg}/advance/"),
        ("teacher", "/admin/classroom/classroom/{c}/add-students/"),
    ):
        client = Client(enforce_csrf_checks=True)
        client.force_login(world["users"][who])
        assert client.post(method_url.format(**world), {"lines": "bea"}).status_code == 403


# --- every admin page an instructor can open names nothing of another instructor's ---

SECRET = "zqx-secret"


@pytest.fixture
def two_classes(world: dict, other_teacher: Any, django_user_model: Any) -> dict[str, Any]:
    """The teacher's class (from `world`) and another instructor's, every name marked SECRET."""
    from datetime import timedelta

    from django.utils import timezone

    from classroom.models import Assignment, AssignmentExtension, Classroom
    from feedback.services import add_comment, default_rubric

    theirs = Classroom.objects.create(name=f"{SECRET} class")
    theirs.instructors.add(other_teacher)
    pupil = django_user_model.objects.create_user(f"{SECRET}-student")
    Membership.objects.create(classroom=theirs, student=pupil)
    homework = Assignment.objects.create(
        classroom=theirs,
        title=f"{SECRET} assignment",
        prompt=f"{SECRET} prompt",
        created_by=other_teacher,
    )
    AssignmentExtension.objects.create(
        assignment=homework, student=pupil, due_at=timezone.now() + timedelta(days=3)
    )
    work = start_submission(assignment=homework, student=pupil)
    add_comment(author=other_teacher, submission=work, element="claim", text=f"{SECRET} note")
    default_rubric(assignment=homework).criteria.update(name=f"{SECRET} criterion")
    _their_discussion(theirs, other_teacher, pupil)
    # The teacher's own class has a rubric too, so its pages have something to show.
    default_rubric(assignment=world["users"]["teacher"].classes_taught.get().assignments.get())
    return world


def _their_discussion(theirs: Any, other_teacher: Any, pupil: Any) -> None:
    """A graded discussion in the other class, with a post, a team, their private case file."""
    from casefiles.models import CaseFile
    from discussions.grading import sync_assignment
    from discussions.models import Discussion, TeamPlace
    from discussions.services import create_post

    talk = Discussion.objects.create(
        classroom=theirs,
        title=f"{SECRET} discussion",
        thesis=f"{SECRET} thesis",
        readings=f"{SECRET} readings",
        case_file=CaseFile.objects.create(title=f"{SECRET} case file", owner=other_teacher),
        created_by=other_teacher,
    )
    sync_assignment(discussion=talk, graded=True, author=other_teacher)
    TeamPlace.objects.create(discussion=talk, student=pupil, team="for")
    create_post(discussion=talk, author=pupil, claim=f"{SECRET} claim", premises=["p"], side="for")


def _admin_pages(user: Any) -> list[str]:
    """Every admin page `user` can open: the index, each model's list, add form and
    change forms of the rows it lists, and the autocomplete of every autocomplete field."""
    from django.contrib import admin
    from django.test import RequestFactory
    from django.urls import reverse

    request = RequestFactory().get("/admin/")
    request.user = user
    pages = [reverse("admin:index")]
    for model, model_admin in admin.site._registry.items():
        app, name = model._meta.app_label, model._meta.model_name
        if not model_admin.has_view_permission(request):
            continue
        pages.append(reverse(f"admin:{app}_{name}_changelist"))
        pages.append(reverse("admin:app_list", args=[app]))
        if model_admin.has_add_permission(request):
            pages.append(reverse(f"admin:{app}_{name}_add"))
        for pk in model_admin.get_queryset(request).values_list("pk", flat=True)[:20]:
            pages.append(reverse(f"admin:{app}_{name}_change", args=[pk]))
        for field in model_admin.get_autocomplete_fields(request):
            pages.append(
                reverse("admin:autocomplete")
                + f"?app_label={app}&model_name={name}&field_name={field}&term="
            )
    return pages


def _secrets_shown(user: Any) -> dict[str, int]:
    client = Client()
    client.force_login(user)
    shown = {}
    for page in _admin_pages(user):
        response = client.get(page)
        assert response.status_code < 500, page
        if SECRET in response.content.decode().lower():
            shown[page] = response.status_code
    return shown


def test_it_names_no_other_instructors_class_on_any_admin_page(two_classes: dict) -> None:
    teacher, other = two_classes["users"]["teacher"], two_classes["users"]["other_teacher"]
    # List filters, add and change forms' choices, autocompletes: nothing of theirs.
    assert _secrets_shown(teacher) == {}
    # The walk reaches the places such names would show: their own instructor sees them.
    seen = _secrets_shown(other)
    for where in (
        "/admin/classroom/submission/",
        "/admin/classroom/assignment/add/",
        "/admin/discussions/discussion/",
        "/admin/discussions/post/",
        # Their own private case file is a choice on their form only.
        "/admin/discussions/discussion/add/",
    ):
        assert where in seen, where


def test_it_offers_an_extension_only_for_the_assignments_own_students(
    two_classes: dict, assignment: Any
) -> None:
    client = Client()
    client.force_login(two_classes["users"]["teacher"])
    form = client.get(f"/admin/classroom/assignment/{assignment.pk}/change/")
    choices = form.context["inline_admin_formsets"][0].formset.empty_form.fields["student"]
    assert [u.username for u in choices.queryset] == ["ana"]


def test_it_filters_no_admin_list_down_to_another_instructors_rows(two_classes: dict) -> None:
    """A list filter's parameter naming their class, assignment or discussion shows nothing of
    theirs (the rows are scoped before any filter applies)."""
    from classroom.models import Assignment, Classroom
    from discussions.models import Discussion

    theirs = Classroom.objects.get(name=f"{SECRET} class")
    talk = Discussion.objects.get(classroom=theirs)
    homework = Assignment.objects.get(classroom=theirs, kind="argument")
    client = Client()
    client.force_login(two_classes["users"]["teacher"])
    for url in (
        f"/admin/classroom/assignment/?classroom__id__exact={theirs.pk}",
        f"/admin/classroom/assignment/?kind__exact=discussion&classroom__id__exact={theirs.pk}",
        f"/admin/classroom/submission/?assignment__id__exact={homework.pk}",
        f"/admin/discussions/discussion/?classroom__id__exact={theirs.pk}",
        f"/admin/discussions/post/?discussion__id__exact={talk.pk}",
    ):
        response = client.get(url)
        assert response.status_code < 500, url
        assert SECRET not in response.content.decode().lower(), url
