from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from coach.models import CoachMessage
from feedback.models import Comment, Release, Score
from feedback.services import (
    FeedbackRefused,
    add_comment,
    default_rubric,
    grades_csv,
    release,
    release_all,
    reply_to_comment,
    set_score,
    total_for,
    unrelease,
)

pytestmark = pytest.mark.django_db


def test_it_creates_the_default_rubric_once(assignment: Any) -> None:
    rubric = default_rubric(assignment=assignment)
    again = default_rubric(assignment=assignment)
    assert rubric.pk == again.pk
    names = list(rubric.criteria.values_list("name", flat=True))
    assert names == [
        "Claim",
        "Grounds",
        "Warrant",
        "Grounds backing",
        "Warrant backing",
        "Qualifier",
        "Rebuttal",
        "Overall coherence",
    ]
    labels = [level["label"] for level in rubric.criteria.first().levels]
    assert labels == ["Missing", "Weak", "Adequate", "Strong"]


def test_it_lets_the_instructor_comment_on_an_element(teacher: Any, submission: Any) -> None:
    comment = add_comment(author=teacher, submission=submission, element="warrant", text=" Why? ")
    assert (comment.element, comment.text, comment.message) == ("warrant", "Why?", None)


def test_it_anchors_a_comment_to_a_message_of_this_argument(
    teacher: Any, submission: Any, other_submission: Any
) -> None:
    mine = CoachMessage.objects.create(
        argument=submission.argument, role="user", text="hi", step="claim"
    )
    theirs = CoachMessage.objects.create(
        argument=other_submission.argument, role="user", text="hi", step="claim"
    )
    comment = add_comment(
        author=teacher, submission=submission, element="claim", text="ok", message_id=mine.pk
    )
    assert comment.message == mine
    with pytest.raises(FeedbackRefused):
        add_comment(
            author=teacher, submission=submission, element="claim", text="x", message_id=theirs.pk
        )


@pytest.mark.parametrize("who", ["other_teacher", "student", "other_student"])
def test_it_refuses_comments_from_anyone_but_the_classes_instructor(
    who: str, submission: Any, request: Any
) -> None:
    user = request.getfixturevalue(who)
    with pytest.raises(FeedbackRefused):
        add_comment(author=user, submission=submission, element="claim", text="x")
    assert not Comment.objects.exists()


@pytest.mark.parametrize("element", ["", "title", "grounds_backing", "CLAIM"])
def test_it_refuses_an_unknown_element(teacher: Any, submission: Any, element: str) -> None:
    with pytest.raises(FeedbackRefused):
        add_comment(author=teacher, submission=submission, element=element, text="x")


@pytest.mark.parametrize("text", ["", "   ", "a\x00b", "x" * 4001])
def test_it_refuses_unusable_comment_text(teacher: Any, submission: Any, text: str) -> None:
    with pytest.raises(FeedbackRefused):
        add_comment(author=teacher, submission=submission, element="claim", text=text)


def test_it_lets_the_student_reply_once_after_release(
    teacher: Any, student: Any, submission: Any
) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="x")
    with pytest.raises(FeedbackRefused):
        reply_to_comment(author=student, comment=comment, text="before release")
    release(author=teacher, submission=submission)
    reply = reply_to_comment(author=student, comment=comment, text="thanks")
    assert reply.text == "thanks"
    with pytest.raises(FeedbackRefused):
        reply_to_comment(author=student, comment=comment, text="again")
    comment.refresh_from_db()
    assert comment.reply.text == "thanks"


@pytest.mark.parametrize("who", ["teacher", "other_student", "other_teacher"])
def test_it_refuses_replies_from_anyone_but_the_student(
    who: str, teacher: Any, submission: Any, request: Any
) -> None:
    comment = add_comment(author=teacher, submission=submission, element="claim", text="x")
    release(author=teacher, submission=submission)
    with pytest.raises(FeedbackRefused):
        reply_to_comment(author=request.getfixturevalue(who), comment=comment, text="y")


def test_it_scores_and_totals(teacher: Any, submission: Any) -> None:
    criteria = list(default_rubric(assignment=submission.assignment).criteria.all())
    set_score(author=teacher, submission=submission, criterion=criteria[0], level=3)
    set_score(author=teacher, submission=submission, criterion=criteria[1], level=1)
    set_score(author=teacher, submission=submission, criterion=criteria[1], level=2)
    assert Score.objects.count() == 2
    total = total_for(submission=submission)
    assert (total.points, total.maximum) == (5, 24)


@pytest.mark.parametrize("level", [-1, 4, 99])
def test_it_refuses_a_level_the_criterion_lacks(teacher: Any, submission: Any, level: int) -> None:
    criterion = default_rubric(assignment=submission.assignment).criteria.first()
    with pytest.raises(FeedbackRefused):
        set_score(author=teacher, submission=submission, criterion=criterion, level=level)


def test_it_refuses_scores_from_another_instructor(other_teacher: Any, submission: Any) -> None:
    criterion = default_rubric(assignment=submission.assignment).criteria.first()
    with pytest.raises(FeedbackRefused):
        set_score(author=other_teacher, submission=submission, criterion=criterion, level=1)


def test_it_releases_and_unreleases(teacher: Any, other_teacher: Any, submission: Any) -> None:
    with pytest.raises(FeedbackRefused):
        release(author=other_teacher, submission=submission)
    row = release(author=teacher, submission=submission)
    assert row.released_by == teacher
    assert row.passback == ""  # the assignment is not linked to an LMS
    release(author=teacher, submission=submission)
    assert Release.objects.count() == 1
    unrelease(author=teacher, submission=submission)
    assert not Release.objects.exists()


def test_it_releases_a_whole_assignment(
    teacher: Any, assignment: Any, submission: Any, other_submission: Any
) -> None:
    assert release_all(author=teacher, assignment=assignment) == 2
    assert Release.objects.count() == 2


def test_it_writes_one_grades_row_per_student(
    teacher: Any, assignment: Any, submission: Any, django_user_model: Any, classroom: Any
) -> None:
    criteria = list(default_rubric(assignment=assignment).criteria.all())
    set_score(author=teacher, submission=submission, criterion=criteria[2], level=2)
    set_score(author=teacher, submission=submission, criterion=criteria[7], level=3)
    release(author=teacher, submission=submission)
    # bea has no submission; a student named like a formula is neutralised.
    evil = django_user_model.objects.create_user("=cmd()")
    classroom.memberships.create(student=evil)
    rows = list(csv.reader(io.StringIO(grades_csv(assignment=assignment))))
    assert rows[0] == ["student", *(c.name for c in criteria), "total", "max", "released"]
    by_name = {row[0]: row for row in rows[1:]}
    assert set(by_name) == {"ana", "bea", "'=cmd()"}
    assert by_name["ana"][1:] == ["", "", "2", "", "", "", "", "3", "5", "24", "yes"]
    assert by_name["bea"][-3:] == ["", "24", "no"]
