"""The student's own page (/me/): released feedback, assignments to start, runs by format."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from classroom.models import Assignment, Classroom, Membership
from classroom.services import make_instructor, start_submission
from engine.models import Debate
from feedback.services import add_comment, default_rubric, release, set_score

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> dict[str, Any]:
    users = get_user_model().objects
    teacher = make_instructor(user=users.create_user("teacher"))
    ana = users.create_user("ana")
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=ana)
    done = Assignment.objects.create(
        classroom=room, title="City centres", prompt="Car-free?", created_by=teacher
    )
    todo = Assignment.objects.create(
        classroom=room, title="School uniforms", prompt="Uniforms?", created_by=teacher
    )
    return {"teacher": teacher, "ana": ana, "done": done, "todo": todo}


def _page(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/me/").content.decode()


def test_it_shows_feedback_once_released_with_the_points(world: dict) -> None:
    submission = start_submission(assignment=world["done"], student=world["ana"])
    add_comment(author=world["teacher"], submission=submission, element="claim", text="Good")
    criterion = default_rubric(assignment=world["done"]).criteria.first()
    set_score(author=world["teacher"], submission=submission, criterion=criterion, level=2)
    assert "Feedback from your instructor" not in _page(world["ana"])

    release(author=world["teacher"], submission=submission, pass_back=False)

    body = _page(world["ana"])
    assert "Feedback from your instructor" in body
    assert f'href="/feedback/{submission.pk}/">City centres</a>' in body
    assert "2 of 24 points" in body


def test_it_offers_to_start_an_assignment_from_the_page(world: dict) -> None:
    start_submission(assignment=world["done"], student=world["ana"])
    body = _page(world["ana"])
    assert f'action="/assignments/{world["todo"].pk}/start/"' in body
    assert f'action="/assignments/{world["done"].pk}/start/"' not in body


def test_it_lists_each_run_under_its_format(world: dict) -> None:
    ana = world["ana"]
    Debate.objects.create(topic="Ana's debate on tolls", creator=ana)
    Debate.objects.create(topic="Ana's stress test", creator=ana, format="stress")
    Debate.objects.create(topic="Ana's inquiry", creator=ana, format="inquiry")
    body = _page(ana)
    card = body[body.index('id="debates-heading"') :]
    card = card[: card.index("</section>")]
    assert "My debates, inquiries and stress tests" in card
    for heading, topic in (
        ("Debates", "debate on tolls"),
        ("Stress tests", "stress test"),
        ("Inquiries", "inquiry"),
    ):
        section = card[card.index(f"<h3>{heading}</h3>") :]
        assert f"Ana&#x27;s {topic}" in section[: section.index("</ul>")]


def test_it_tells_an_instructor_what_their_admin_holds(world: dict) -> None:
    body = _page(world["teacher"])
    assert "Your classes: assignments" in body
    # Not the superuser's description (model calls and costs are not a teacher's tables).
    assert "what every model call cost" not in body
    assert "Instructors" not in _page(world["ana"])


def test_it_puts_the_waiting_assignments_start_before_a_free_argument(world: dict) -> None:
    body = _page(world["ana"])
    waiting = body.index("is waiting for you")
    assert waiting < body.index("Start an argument")
    start = f'action="/assignments/{world["done"].pk}/start/"'
    assert body.index(start) > waiting
    start_submission(assignment=world["done"], student=world["ana"])
    start_submission(assignment=world["todo"], student=world["ana"])
    assert "is waiting for you" not in _page(world["ana"])


def test_it_shows_an_instructor_the_classes_they_teach_not_a_code_to_ask_for(
    world: dict,
) -> None:
    start_submission(assignment=world["done"], student=world["ana"])
    room = world["done"].classroom
    other = Classroom.objects.create(name="Someone else's seminar")
    other.instructors.add(get_user_model().objects.create_user("colleague"))

    body = _page(world["teacher"])

    card = body[body.index('id="teaching-heading"') :]
    card = card[: card.index("</section>")]
    assert "Classes I teach" in card
    assert f'href="/admin/classroom/classroom/{room.pk}/change/">Rhetoric 101</a>' in card
    assert room.join_code in card
    assert "1 student" in card
    assert f'href="/admin/classroom/assignment/{world["done"].pk}/grid/">City centres</a>' in card
    assert "1 of 1 started" in card and "0 of 1 started" in card
    assert "seminar" not in body  # only their own classes
    # The student's card would tell them to ask their instructor for a code.
    assert "You are not in a class yet" not in body
    assert 'id="classes-heading"' not in body


def test_it_shows_a_student_no_teaching_card(world: dict) -> None:
    body = _page(world["ana"])
    assert 'id="teaching-heading"' not in body
    assert 'id="classes-heading"' in body and "Rhetoric 101" in body


def test_it_shows_an_instructor_who_is_also_a_student_both_cards(world: dict) -> None:
    teacher = world["teacher"]
    seminar = Classroom.objects.create(name="Staff seminar")
    Membership.objects.create(classroom=seminar, student=teacher)

    body = _page(teacher)

    assert 'id="teaching-heading"' in body and 'id="classes-heading"' in body
    classes = body[body.index('id="classes-heading"') :]
    assert "Staff seminar" in classes[: classes.index("</section>")]


def test_it_says_the_teaching_card_in_spanish(world: dict) -> None:
    client = Client(headers={"accept-language": "es"})
    client.force_login(world["teacher"])
    body = client.get("/me/").content.decode()
    assert "Clases que imparto" in body
    assert "1 estudiante" in body
    assert "0 de 1 la empezaron" in body
