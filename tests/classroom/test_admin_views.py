from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group

from classroom.models import Classroom, Membership
from classroom.services import INSTRUCTOR_GROUP, INSTRUCTOR_PERMISSIONS, start_submission

pytestmark = pytest.mark.django_db


def test_it_gives_the_instructors_group_exactly_its_permissions(teacher: Any) -> None:
    group = Group.objects.get(name=INSTRUCTOR_GROUP)
    held = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert held == set(INSTRUCTOR_PERMISSIONS)
    assert teacher.is_staff and not teacher.is_superuser


def test_it_leads_the_admin_index_with_the_instructors_classes(
    client: Any, teacher: Any, other_teacher: Any, assignment: Any
) -> None:
    theirs = Classroom.objects.create(name="Someone else's <class>")
    theirs.instructors.add(other_teacher)
    client.force_login(teacher)
    page = client.get("/admin/").content.decode()
    assert page.index("My classes") < page.index("Rhetoric 101")
    assert "City centres" in page and "Someone else" not in page


def test_it_makes_the_creator_teach_a_new_class(client: Any, teacher: Any) -> None:
    client.force_login(teacher)
    response = client.post(
        "/admin/classroom/classroom/add/",
        {
            "name": "Logic",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    room = Classroom.objects.get(name="Logic")
    assert list(room.instructors.all()) == [teacher] and len(room.join_code) == 8


def test_it_creates_a_hints_only_assignment_with_criteria(
    client: Any, teacher: Any, classroom: Any
) -> None:
    client.force_login(teacher)
    response = client.post(
        "/admin/classroom/assignment/add/",
        {
            "classroom": classroom.pk,
            "title": "Warrants",
            "prompt": "Is homework useful?",
            "language": "en",
            "coach_policy": "hints_only",
            "turn_quota": "5",
            "criteria": ["grounds_has_number_or_citation", "warrant_backing_names_source"],
            "extensions-TOTAL_FORMS": "0",
            "extensions-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    made = classroom.assignments.get(title="Warrants")
    assert made.required_criteria == {
        "grounds": ["grounds_has_number_or_citation"],
        "warrantBacking": ["warrant_backing_names_source"],
    }
    assert made.created_by == teacher and made.coach_policy == "hints_only"


def test_it_adds_students_by_line_with_a_result_each(
    client: Any, teacher: Any, classroom: Any, other_student: Any
) -> None:
    client.force_login(teacher)
    url = f"/admin/classroom/classroom/{classroom.pk}/add-students/"
    page = client.post(url, {"lines": "BEA@example.org\nana\nnobody\n<script>x</script>"})
    text = page.content.decode()
    assert Membership.objects.filter(classroom=classroom, student=other_student).exists()
    assert "added" in text and "already in the class" in text
    assert "no account has this username or e-mail" in text
    assert "<script>x</script>" not in text and "&lt;script&gt;" in text


def test_it_shows_the_grid_with_who_wrote_each_cell(
    client: Any, teacher: Any, student: Any, assignment: Any
) -> None:
    argument = start_submission(assignment=assignment, student=student).argument
    argument.claim, argument.grounds = "Cars out.", "40% of trips are short."
    argument.provenance = {"claim": "student_words", "grounds": "accepted"}
    argument.current_step = "warrant"
    argument.save()
    client.force_login(teacher)
    page = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/").content.decode()
    assert "the student&#x27;s words, accepted" in page
    assert "the coach&#x27;s proposal, accepted" in page
    assert page.count('class="cell-done"') == 2 and page.count('class="cell-in_progress"') == 1
    csv_text = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid.csv").content
    assert b"ana,warrant,False" in csv_text and b"done,student_words" in csv_text
    filtered = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/?reliance=1")
    assert "ana" in filtered.content.decode()  # one of two written parts from the coach
    stuck = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/?stuck=3")
    assert "No student matches." in stuck.content.decode()


def test_it_shows_the_work_read_only_with_guards_collapsed(
    client: Any, teacher: Any, student: Any, assignment: Any
) -> None:
    from coach.models import CoachTurn

    submission = start_submission(assignment=assignment, student=student)
    argument = submission.argument
    argument.claim = "<img src=x onerror=alert(1)>"
    argument.save()
    CoachTurn.objects.create(
        argument=argument,
        step="claim",
        guard_decisions=[{"name": "no_proposals", "changed": True, "reason": "hints only"}],
    )
    client.force_login(teacher)
    url = f"/admin/classroom/assignment/{assignment.pk}/work/{submission.pk}/"
    page = client.get(url).content.decode()
    assert "<img src=x" not in page and "&lt;img src=x" in page
    assert '<details class="argue-guards"><summary>' in page
    # The guard in the teacher's words; its log line (name and reason) in the detail.
    assert "guards changed the reply: removed a proposal (hints only)" in page
    assert '<code lang="en">no_proposals: hints only</code>' in page
    assert "t-box t-claim" in page


def test_it_names_the_grids_columns_and_criteria_in_spanish(
    client: Any, teacher: Any, assignment: Any
) -> None:
    from django.conf import settings

    client.force_login(teacher)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/").content.decode()
    assert '<th scope="col">Afirmación</th>' in grid and ">Claim<" not in grid
    form = client.get(f"/admin/classroom/assignment/{assignment.pk}/change/").content.decode()
    assert "Datos: " in form and "Grounds: " not in form


def test_it_names_an_english_arguments_parts_in_the_teachers_spanish(
    client: Any, teacher: Any, student: Any, assignment: Any
) -> None:
    """The work view of an English argument, read in Spanish: the Toulmin boxes and the
    "who wrote each part" table name the parts in Spanish; only the student's words are
    marked English."""
    from django.conf import settings

    submission = start_submission(assignment=assignment, student=student)
    argument = submission.argument
    argument.language = "en"
    argument.claim = "Cities should close their centres to cars."
    argument.save()
    client.force_login(teacher)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"

    url = f"/admin/classroom/assignment/{assignment.pk}/work/{submission.pk}/"
    page = client.get(url).content.decode()

    assert '<h2 id="t-claim">Afirmación</h2>' in page and ">Claim<" not in page
    assert '<th scope="row">Afirmación</th>' in page
    assert '<p class="t-text" lang="en">Cities should close their centres to cars.</p>' in page
    assert '<article class="toulmin-page">' in page  # the labels are not marked English


def test_it_refuses_a_second_class_of_the_same_name_for_one_instructor(
    client: Any, teacher: Any, django_user_model: Any
) -> None:
    form = {"name": "Logic", "memberships-TOTAL_FORMS": "0", "memberships-INITIAL_FORMS": "0"}
    client.force_login(teacher)
    assert client.post("/admin/classroom/classroom/add/", form).status_code == 302
    again = client.post("/admin/classroom/classroom/add/", {**form, "name": " logic"})
    assert again.status_code == 200
    assert "You already teach a class named" in again.content.decode()
    assert Classroom.objects.filter(name__iexact="logic").count() == 1
    # Another instructor may name a class of theirs the same.
    other = django_user_model.objects.create_user("other-teacher", is_staff=True)
    other.groups.set(teacher.groups.all())
    client.force_login(other)
    assert client.post("/admin/classroom/classroom/add/", form).status_code == 302
    assert Classroom.objects.filter(name="Logic").count() == 2


def test_it_offers_only_instructors_on_a_new_class_with_the_creator_chosen(
    client: Any, teacher: Any, student: Any, django_user_model: Any
) -> None:
    admin = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(admin)
    form = client.get("/admin/classroom/classroom/add/").context["adminform"].form
    field = form.fields["instructors"]
    # The creator and the instructors; a student is never offered.
    assert {u.username for u in field.queryset} == {"root", "teacher"}
    assert form.initial["instructors"] == [admin.pk]
    # Two filterable lists (keyboard: type to filter, Enter to move), not a Ctrl-click list.
    assert field.widget.widget.__class__.__name__ == "FilteredSelectMultiple"


def test_it_shows_the_demo_instructor_a_teachers_admin_not_the_sites_tables(
    client: Any, settings: Any
) -> None:
    from io import StringIO

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    settings.DEBUG = True  # seed_demo refuses public passwords otherwise
    call_command("seed_demo", stdout=StringIO())
    call_command("setup_instructors", "instructor", stdout=StringIO())
    client.force_login(get_user_model().objects.get(username="instructor"))
    page = client.get("/admin/").content.decode()
    assert "My classes" in page and "Classes" in page and "Rubrics" in page
    # Infrastructure is the superuser's: sign-in attempts, spans, cached answers, model calls.
    for table in ("Access attempts", "Spans", "Cached responses", "Model calls", "Users", "Groups"):
        assert table not in page, table
