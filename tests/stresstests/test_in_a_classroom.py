"""A stress test asked by an assignment: where the claim stands reaches the student's
assignment page, the instructor's grid and the read-only work view."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from classroom.models import Assignment, Classroom, Membership, Submission
from classroom.services import make_instructor
from stresstests import services
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_where_the_claim_stands_to_the_student_and_the_instructor(
    client, ada, finished_argument, personas, stress_model
) -> None:
    teacher = make_instructor(user=get_user_model().objects.create_user("teacher"))
    room = Classroom.objects.create(name="Civics")
    room.instructors.add(teacher)
    Membership.objects.create(classroom=room, student=ada)
    assignment = Assignment.objects.create(
        classroom=room, title="Bike lanes", prompt="Should we?", asks_stress_test=True
    )
    submission = Submission.objects.create(
        assignment=assignment, student=ada, argument=finished_argument
    )
    stress = settle(
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
        )
    )
    assert stress.debate.status == "done"

    page = client.get(f"/assignments/{assignment.pk}/").content.decode()
    assert f'href="/stress/{stress.pk}/"' in page
    words = [w for w in ("Your claim stands", "can be defended", "is defeated") if w in page]
    assert len(words) == 1

    # The instructor reads it about the student, not addressed to them.
    said = {
        "Your claim stands": "The claim stands",
        "can be defended": "The claim can be defended",
        "is defeated": "The claim is defeated",
    }[words[0]]
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/").content.decode()
    cell = grid.split('class="asked-stress"', 1)[1].split("</td>", 1)[0]
    assert said in cell and "Your claim" not in cell
    work = client.get(f"/admin/classroom/assignment/{assignment.pk}/work/{submission.pk}/")
    assert said in work.content.decode()
