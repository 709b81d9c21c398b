"""Accept never stores a circular text or another step's text, whoever wrote it.

The guards hold back a coach's circular or copied proposal (coach.guards.judgment_gate),
but the student can edit a proposal, or type, and press Accept: the accept endpoint runs
the same check on the text it would store (the circular and copied cases only), refuses
with the coach's reason in the argument's language, and keeps the proposal and the
student's words (the text comes back with the refusal).
"""

from __future__ import annotations

from typing import Any

import pytest

from coach.models import Argument, CoachMessage, Role
from tests.coach.test_api import client_for, decide, with_pending

pytestmark = pytest.mark.django_db

CLAIM = "School should start at 9 a.m. instead of 8 a.m."
GROUNDS = "A 2019 survey of 400 students found 70% sleep less than seven hours."


def at_step(argument: Argument, step: str, proposal_value: str, **texts: str) -> Argument:
    for field, text in texts.items():
        setattr(argument, field, text)
    argument.current_step = step
    return with_pending(argument, {"field": step, "value": proposal_value, "rationale": ""})


def test_it_refuses_an_edit_that_copies_the_claim_into_the_grounds(
    student: Any, argument: Argument
) -> None:
    at_step(argument, "grounds", GROUNDS, claim=CLAIM)
    typed = "school should start at 9 a.m. instead of 8 a.m"
    response = decide(client_for(student), argument, action="accept", value=typed)
    assert response.status_code == 422
    body = response.json()
    assert body["error"] == "circular_or_copied"
    assert body["value"] == typed  # the student's words come back
    said = body["coach_message"]["text"]
    assert said.startswith("I cannot keep that as the grounds: it is the same text as your claim")
    assert '"Accept"' in said
    argument.refresh_from_db()
    assert argument.grounds == "" and argument.current_step == "grounds"
    assert argument.pending_proposal["value"] == GROUNDS  # nothing lost: still there to accept
    stored = CoachMessage.objects.get(argument=argument, role=Role.ASSISTANT)
    assert stored.text == said and stored.step == "grounds"


def test_it_refuses_a_circular_warrant_in_spanish(student: Any, spanish_argument: Argument) -> None:
    at_step(
        spanish_argument,
        "warrant",
        "Si los alumnos duermen más, aprenden mejor.",
        claim="Los deberes deberían prohibirse.",
        grounds="Una encuesta de 2021 a 300 alumnos halló que el 60% duerme menos de siete horas.",
    )
    typed = "Los deberes deberían prohibirse porque deberían prohibirse."
    client = client_for(student, HTTP_ACCEPT_LANGUAGE="es")  # a Spanish page names "Aceptar"
    body = decide(client, spanish_argument, action="accept", value=typed).json()
    assert body["error"] == "circular_or_copied" and body["value"] == typed
    said = body["coach_message"]["text"]
    assert said.startswith("No puedo guardar eso como la garantía:")
    assert "«Aceptar»" in said
    spanish_argument.refresh_from_db()
    assert spanish_argument.warrant == "" and spanish_argument.current_step == "warrant"


def test_it_refuses_a_circular_proposal_accepted_as_it_is(student: Any, argument: Argument) -> None:
    circular = "Homework should be banned because it should be banned."
    at_step(argument, "warrant", circular, claim="Homework should be banned.", grounds=GROUNDS)
    response = decide(client_for(student), argument, action="accept")
    assert response.status_code == 422 and response.json()["value"] == circular
    argument.refresh_from_db()
    assert argument.warrant == "" and argument.current_step == "warrant"


def test_it_still_accepts_an_edit_in_the_students_own_words(
    student: Any, argument: Argument
) -> None:
    at_step(argument, "grounds", GROUNDS, claim=CLAIM)
    typed = "In my class of 30, 22 said they fall asleep in first period."
    response = decide(client_for(student), argument, action="accept", value=typed)
    assert response.status_code == 200
    argument.refresh_from_db()
    assert argument.grounds == typed and argument.current_step == "warrant"


def test_it_refuses_a_reworded_restatement_only_in_the_coach_not_at_accept(
    student: Any, argument: Argument
) -> None:
    # Narrow on purpose: only circular and copied text is refused by the server; a reworded
    # restatement is the coach's to point out (a reworded good answer must not be blocked).
    at_step(argument, "grounds", GROUNDS, claim=CLAIM)
    typed = "Starting at nine instead of eight is what school should do, truly."
    assert decide(client_for(student), argument, action="accept", value=typed).status_code == 200


def test_it_refuses_typed_words_that_copy_another_step_under_hints_only(
    student: Any, django_user_model: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from classroom.models import Assignment, Classroom, Membership
    from classroom.services import make_instructor, start_submission

    teacher = make_instructor(user=django_user_model.objects.create_user("teacher"))
    room = Classroom.objects.create(name="Rhetoric 101")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=student)
    assignment = Assignment.objects.create(
        classroom=room,
        title="School start",
        prompt="Should school start later?",
        due_at=timezone.now() + timedelta(days=7),
        coach_policy="hints_only",
        created_by=teacher,
    )
    work = start_submission(assignment=assignment, student=student).argument
    work.claim, work.current_step = CLAIM, "grounds"
    work.save()
    response = client_for(student).post(
        f"/coach/{work.pk}/advance/", {"value": CLAIM.upper()}, follow=True
    )
    assert "it is the same text as your claim" in response.content.decode()
    work.refresh_from_db()
    assert work.current_step == "grounds"
    assert work.grounds == CLAIM.upper()  # kept in the box, not lost
