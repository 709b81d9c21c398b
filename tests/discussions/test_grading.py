"""A discussion as an assignment: the grid's figures, the CSV, the rubric, release, teams."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from classroom.models import Assignment, AssignmentKind, Submission
from discussions.grading import sync_assignment
from discussions.models import Discussion, TeamPlace
from discussions.services import PostRefused, create_post, hide_post
from discussions.teams import split_teams
from feedback.services import DISCUSSION_CRITERIA, default_rubric

pytestmark = pytest.mark.django_db

QUESTION = "Is the source a real expert in this very field"


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def built(discussion: Discussion, student: Any, classmate: Any, teacher: Any) -> dict[str, Any]:
    """ana argues for the thesis from expert opinion; ben undermines it with a critical
    question; ana undercuts ben's objection (so hers stands again); ben's off-topic post is
    hidden; the teacher's own post is nobody's work."""
    sync_assignment(discussion=discussion, graded=True, author=teacher)
    argument = create_post(
        discussion=discussion,
        author=student,
        claim="Homework harms sleep",
        premises=["Paediatricians say so"],
        side="for",
        scheme="expert_opinion",
    )
    objection = create_post(
        discussion=discussion,
        author=classmate,
        claim="They are not sleep experts",
        premises=[],
        target=argument,
        attack_type="undermine",
        component="premise",
        premise_index=0,
        question_code="expert.expertise",
    )
    answer = create_post(
        discussion=discussion,
        author=student,
        claim="The survey was by sleep researchers",
        premises=["It says so on page 2"],
        target=objection,
        attack_type="undercut",
        component="inference",
    )
    off_topic = create_post(
        discussion=discussion, author=classmate, claim="lol", premises=["x"], side="against"
    )
    hide_post(post=off_topic, reason="Off topic")
    create_post(
        discussion=discussion, author=teacher, claim="Remember sources", premises=["p"], side="for"
    )
    discussion.refresh_from_db()
    return {"argument": argument, "objection": objection, "answer": answer}


def _grid_rows(page: str) -> dict[str, list[str]]:
    import re

    rows = {}
    for row in re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", page, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.split(r"</t[hd]>", row)]
        name = cells[0].split()[0]
        rows[name] = [" ".join(c.split()) for c in cells[1:] if c.strip() or True]
    return rows


def test_it_counts_each_students_part_on_the_grid(
    built: dict, discussion: Discussion, teacher: Any
) -> None:
    response = _client(teacher).get(f"/admin/classroom/assignment/{discussion.assignment_id}/grid/")
    assert response.status_code == 302  # the assignment's grid is the discussion's
    page = _client(teacher).get(response["Location"]).content.decode()
    rows = _grid_rows(page)
    # team, arguments, objections, standing of posts, replies received, questions
    assert rows["ana"][:5] == ["—", "1", "1", "2 of 2", "1"]
    assert rows["ben"][:5] == ["—", "0", "1", "0 of 1", "1"]
    assert QUESTION in rows["ben"][5] and QUESTION not in rows["ana"][5]
    assert "1 hidden" in page  # ben's hidden post: counted apart, not as standing or a reply
    assert "teacher" not in rows


def test_it_downloads_the_grid_as_csv(built: dict, discussion: Discussion, teacher: Any) -> None:
    response = _client(teacher).get(f"/admin/discussions/discussion/{discussion.pk}/grid.csv")
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0][:6] == [
        "student",
        "team",
        "arguments",
        "objections",
        "standing",
        "replies_received",
    ]
    by_name = {row[0]: row for row in table[1:]}
    assert by_name["ana"][1:7] == ["free", "1", "1", "2", "1", "0"]
    assert by_name["ben"][1:7] == ["free", "0", "1", "0", "1", "1"]
    assert by_name["ben"][7].startswith(QUESTION) and by_name["ben"][8] == "no"


def test_it_counts_as_replies_only_classmates_objections_not_the_instructors(
    built: dict, discussion: Discussion, teacher: Any
) -> None:
    create_post(
        discussion=discussion,
        author=teacher,
        claim="Which paediatricians?",
        premises=[],
        target=built["argument"],
        attack_type="rebut",
        component="claim",
    )
    response = _client(teacher).get(f"/admin/discussions/discussion/{discussion.pk}/grid.csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    column = table[0].index("replies_received")
    assert {row[0]: row[column] for row in table[1:]} == {"ana": "1", "ben": "1"}


def test_it_shows_one_students_posts_with_names_to_the_instructor(
    built: dict, discussion: Discussion, teacher: Any, student: Any
) -> None:
    discussion.anonymous = True
    discussion.save()
    page = (
        _client(teacher)
        .get(f"/admin/discussions/discussion/{discussion.pk}/work/{student.pk}/")
        .content.decode()
    )
    assert "Homework harms sleep" in page and "The survey was by sleep researchers" in page
    assert "Ben" in page  # who replied, and whom she answered: names, for the instructor
    assert "lol" not in page  # ben's post, not hers


def test_it_makes_a_graded_discussion_an_assignment_with_a_discussion_rubric(
    built: dict, discussion: Discussion, student: Any, classmate: Any, teacher: Any
) -> None:
    assignment = discussion.assignment
    assert assignment.kind == AssignmentKind.DISCUSSION
    assert (assignment.title, assignment.prompt) == (discussion.title, discussion.thesis)
    # Each student who posted has work to grade; the instructor's post is nobody's.
    assert sorted(s.student.username for s in assignment.submissions.all()) == ["ana", "ben"]
    assert all(s.argument_id is None for s in assignment.submissions.all())
    names = [c.name for c in default_rubric(assignment=assignment).criteria.all()]
    assert names[:4] == list(DISCUSSION_CRITERIA["en"])
    # Editing the discussion keeps its assignment in step.
    discussion.title = "Homework, again"
    discussion.save()
    sync_assignment(discussion=discussion, graded=False)
    assert Assignment.objects.get(pk=assignment.pk).title == "Homework, again"


def test_it_grades_students_who_posted_before_it_was_graded(
    discussion: Discussion, student: Any, teacher: Any
) -> None:
    create_post(discussion=discussion, author=student, claim="c", premises=["p"], side="for")
    assert not Submission.objects.exists()
    sync_assignment(discussion=discussion, graded=True, author=teacher)
    assert Submission.objects.get().student == student


def test_it_releases_a_discussions_scores_and_comment_to_the_student(
    built: dict, discussion: Discussion, student: Any, teacher: Any
) -> None:
    submission = Submission.objects.get(assignment=discussion.assignment, student=student)
    criterion = default_rubric(assignment=discussion.assignment).criteria.first()
    teacher_client = _client(teacher)
    base = f"/admin/feedback/rubric/submission/{submission.pk}/"
    assert teacher_client.get(base).status_code == 200
    teacher_client.post(f"{base}scores/", {f"criterion-{criterion.pk}": "2"})
    teacher_client.post(f"{base}comment/", {"element": "discussion", "text": "Good answer to Ben"})
    page = _client(student).get(f"/feedback/{submission.pk}/").content.decode()
    assert "has not released feedback" in page and "Good answer to Ben" not in page
    assert teacher_client.post(f"{base}release/").status_code == 302
    grades = teacher_client.get(
        f"/admin/feedback/rubric/assignment/{discussion.assignment_id}/grades.csv"
    ).content.decode()
    assert "ana," in grades and grades.splitlines()[1].endswith(",yes")
    page = _client(student).get(f"/feedback/{submission.pk}/").content.decode()
    assert "Good answer to Ben" in page and criterion.name in page
    assert f"/discussions/{discussion.pk}/" in page  # back to the discussion, no argument
    # On the student's own page it is a class discussion among the assignments.
    me = _client(student).get("/me/").content.decode()
    assert "class discussion" in me
    response = _client(student).get(f"/assignments/{discussion.assignment_id}/")
    assert response.status_code == 302 and response["Location"] == f"/discussions/{discussion.pk}/"


def test_it_starts_a_graded_discussion_from_the_admin(
    classroom: Any, teacher: Any, other_teacher: Any
) -> None:
    from tests.discussions.test_admin import TEAMS_MANAGEMENT

    data = {
        "classroom": classroom.pk,
        "title": "Uniforms",
        "thesis": "Schools should drop uniforms.",
        "due_at_0": "2030-01-01",
        "due_at_1": "10:00",
        "graded": "on",
        "make_teams": "split",
        **TEAMS_MANAGEMENT,
    }
    response = _client(teacher).post("/admin/discussions/discussion/add/", data)
    assert response.status_code == 302
    discussion = Discussion.objects.get()
    assert discussion.assignment.due_at == discussion.due_at
    # Split alternately by username: ana for, ben against.
    assert dict(TeamPlace.objects.values_list("student__username", "team")) == {
        "ana": "for",
        "ben": "against",
    }
    listing = _client(teacher).get("/admin/classroom/assignment/").content.decode()
    assert "Uniforms" in listing and "a class discussion" in listing
    assert (
        "Uniforms"
        not in _client(other_teacher).get("/admin/classroom/assignment/").content.decode()
    )


def test_it_keeps_a_team_to_its_side(discussion: Discussion, student: Any, classmate: Any) -> None:
    split_teams(discussion=discussion)  # ana for, ben against
    with pytest.raises(PostRefused, match="team for the thesis"):
        create_post(
            discussion=discussion, author=student, claim="c", premises=["p"], side="against"
        )
    theirs = create_post(
        discussion=discussion, author=classmate, claim="No", premises=["p"], side="against"
    )
    ours = create_post(
        discussion=discussion, author=student, claim="Yes", premises=["p"], side="for"
    )
    with pytest.raises(PostRefused, match="team against the thesis"):
        # An objection to an argument against the thesis supports it: not ben's side.
        create_post(
            discussion=discussion,
            author=classmate,
            claim="Their point is weak",
            premises=[],
            target=theirs,
            attack_type="rebut",
            component="claim",
        )
    reply = create_post(
        discussion=discussion,
        author=classmate,
        claim="Not so",
        premises=[],
        target=ours,
        attack_type="rebut",
        component="claim",
    )
    # Two levels down: an objection to ben's objection supports the thesis again, ana's side.
    create_post(
        discussion=discussion,
        author=student,
        claim="It is so",
        premises=[],
        target=reply,
        attack_type="rebut",
        component="claim",
    )
    page = _client(student).get(f"/discussions/{discussion.pk}/").content.decode()
    assert "You are on the team for the thesis" in page
    # The argument form offers ana her team's side only.
    assert 'name="side" value="for"' in page and 'name="side" value="against"' not in page
    split_teams(discussion=discussion, free=True)
    create_post(discussion=discussion, author=student, claim="c", premises=["p"], side="against")


def test_it_keeps_grid_work_and_csv_to_the_classes_instructors(
    built: dict, discussion: Discussion, student: Any, other_teacher: Any, teacher: Any
) -> None:
    urls = [
        f"/admin/discussions/discussion/{discussion.pk}/grid/",
        f"/admin/discussions/discussion/{discussion.pk}/grid.csv",
        f"/admin/discussions/discussion/{discussion.pk}/work/{student.pk}/",
    ]
    for url in urls:
        assert _client(teacher).get(url).status_code == 200, url
        assert _client(other_teacher).get(url).status_code == 404, url
        assert _client(student).get(url).status_code == 302, url  # to the admin's login
        assert Client().get(url).status_code == 302, url
    # A student of another class is no row of this grid.
    assert _client(teacher).get(urls[2].replace(str(student.pk), "999999")).status_code == 404


def test_it_edits_a_discussions_assignment_without_its_mirrored_fields(
    discussion: Discussion, teacher: Any
) -> None:
    sync_assignment(discussion=discussion, graded=True, author=teacher)
    url = f"/admin/classroom/assignment/{discussion.assignment_id}/change/"
    page = _client(teacher).get(url)
    assert page.status_code == 200
    assert f"/admin/discussions/discussion/{discussion.pk}/change/" in page.content.decode()
    change = _client(teacher).get(f"/admin/discussions/discussion/{discussion.pk}/change/")
    assert (
        f"/admin/feedback/rubric/assignment/{discussion.assignment_id}/" in change.content.decode()
    )
    response = _client(teacher).post(url, {"language": "es", "title": "Changed here"})
    assert response.status_code == 302
    assignment = Assignment.objects.get(pk=discussion.assignment_id)
    assert (assignment.language, assignment.title) == ("es", "Homework")
