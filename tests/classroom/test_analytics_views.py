"""The class analytics pages: an assignment's and a whole class's charts with their tables."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from classroom.models import Assignment, Membership
from classroom.services import start_submission
from coach.models import CoachTurn
from trials.models import Trial

pytestmark = pytest.mark.django_db


def _table(page: str, key: str) -> list[list[str]]:
    """The rows of one figure's table, as the text of each cell."""
    figure = page.split(f'id="fig-{key}"', 1)[1].split("</figure>", 1)[0]
    body = figure.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [
            re.sub(r"<[^>]+>", "", cell).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def _turn(argument: Any, step: str, *, changed: tuple[str, ...] = (), error: str = "") -> None:
    CoachTurn.objects.create(
        argument=argument,
        step=step,
        error_code=error,
        guard_decisions=[{"name": n, "changed": True, "reason": "r"} for n in changed]
        + [{"name": "schema", "changed": False, "reason": "ok"}],
    )


@pytest.fixture
def worked(assignment: Assignment, student: Any, other_student: Any) -> Assignment:
    """Ana is on the warrant after coach turns; Bea joined but has not started."""
    Membership.objects.create(classroom=assignment.classroom, student=other_student)
    argument = start_submission(assignment=assignment, student=student).argument
    argument.claim, argument.grounds = "Cars out.", "40% of trips are short."
    argument.provenance = {"claim": "typed", "grounds": "accepted"}
    argument.current_step = "warrant"
    argument.save()
    for _ in range(3):
        _turn(argument, "claim", changed=("advance_gating",))
    _turn(argument, "grounds", changed=("no_proposals",))
    _turn(argument, "grounds", error="coach_validation_failed")
    _turn(argument, "grounds", error="coach_stream_failed")
    Trial.objects.create(owner=student, argument=argument, query="q", status="remanded")
    Trial.objects.create(owner=student, argument=argument, query="q", status="sustained")
    return assignment


def test_it_draws_each_measure_with_its_numbers_in_a_table(
    client: Client, teacher: Any, worked: Assignment
) -> None:
    client.force_login(teacher)
    response = client.get(f"/admin/classroom/assignment/{worked.pk}/analytics/")
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('<svg class="bars"') == 6
    assert "1 of 2 expected arguments started, 0 complete." in page
    completion = _table(page, "completion")
    assert completion[0] == ["Claim", "1", "2", "50 %"]
    assert completion[2][1] == "0"  # the warrant is in progress, not done
    turns = dict((row[0], row[1:]) for row in _table(page, "turns"))
    assert turns["Claim"] == ["3", "1"] and turns["Grounds"] == ["1", "1"]
    assert _table(page, "stuck")[0] == ["Claim", "3", "1", "0"]
    guards = dict((row[0], row[1]) for row in _table(page, "guards"))
    assert guards["held back a move to the next step"] == "3"
    assert guards["removed a proposal (hints only)"] == "1"
    assert guards["refused a malformed reply"] == "1"
    provenance = _table(page, "provenance")
    assert provenance[0] == ["Claim", "1", "0", "0", "0", "0 %"]
    assert provenance[1] == ["Grounds", "0", "0", "1", "0", "100 %"]
    verdicts = dict((row[0], row[1]) for row in _table(page, "verdicts"))
    assert verdicts["sustained"] == "1" and verdicts["remanded"] == "0"  # the latest counts
    assert verdicts["not tried"] == "0"


def test_it_counts_every_assignment_of_the_class_together(
    client: Client, teacher: Any, worked: Assignment
) -> None:
    Assignment.objects.create(classroom=worked.classroom, title="Second", prompt="p")
    client.force_login(teacher)
    page = client.get(f"/admin/classroom/classroom/{worked.classroom_id}/analytics/")
    text = page.content.decode()
    assert "1 of 4 expected arguments started" in text  # 2 students × 2 assignments
    assert _table(text, "completion")[0] == ["Claim", "1", "4", "25 %"]
    assert "Second" in text and "City centres" in text  # the scope links


def test_it_shows_an_empty_class_without_failing(
    client: Client, teacher: Any, assignment: Assignment
) -> None:
    client.force_login(teacher)
    page = client.get(f"/admin/classroom/assignment/{assignment.pk}/analytics/").content.decode()
    assert "No student has started yet" in page
    assert _table(page, "turns")[0] == ["Claim", "—", "0"]


def test_it_hides_another_instructors_class(
    client: Client, other_teacher: Any, student: Any, worked: Assignment
) -> None:
    for user, expected in ((other_teacher, 404), (student, 302)):
        client.force_login(user)
        for url in (
            f"/admin/classroom/assignment/{worked.pk}/analytics/",
            f"/admin/classroom/classroom/{worked.classroom_id}/analytics/",
        ):
            assert client.get(url).status_code == expected, (user, url)


def test_it_escapes_names_and_speaks_spanish(
    client: Client, teacher: Any, worked: Assignment
) -> None:
    worked.title = "<script>alert(1)</script>"
    worked.save()
    client.force_login(teacher)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(f"/admin/classroom/assignment/{worked.pk}/analytics/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    assert "Avance por elemento" in page
    assert "Completion per element" not in page
    assert _table(page, "completion")[0][0] == "Afirmación"
    # Coordinates stay numbers a browser reads: never "156,5" from the Spanish locale.
    assert re.search(r'<rect class="part-0" x="\d+(\.\d+)?" y="\d+" width="\d+(\.\d+)?"', page)
    assert not re.search(r'(x|y|width)="\d+,\d', page)
