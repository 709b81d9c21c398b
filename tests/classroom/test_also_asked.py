"""An assignment that also asks for a trial and a stress test: the student's page and the grid."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from classroom.models import Assignment
from classroom.services import start_submission
from trials.models import Trial

pytestmark = pytest.mark.django_db


@pytest.fixture
def asking(assignment: Assignment) -> Assignment:
    assignment.asks_trial = True
    assignment.asks_stress_test = True
    assignment.save()
    return assignment


def test_it_tells_the_student_what_else_is_asked_before_they_start(
    client: Client, student: Any, asking: Assignment
) -> None:
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert "Your instructor also asks for" in page
    assert "A trial of your argument" in page and "A stress test of your argument" in page


def test_it_offers_the_trial_and_stress_test_once_the_argument_is_complete(
    client: Client, student: Any, asking: Assignment, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-configured")  # nothing is called
    argument = start_submission(assignment=asking, student=student).argument
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert page.count("You can start it once your argument is complete.") == 2
    argument.completed_at = timezone.now()
    argument.save()
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert f'action="/trials/argument/{argument.pk}/"' in page
    assert f'href="/arguments/{argument.pk}/stress/"' in page


def test_it_shows_the_latest_trial_to_the_student_and_in_the_grid(
    client: Client, student: Any, teacher: Any, asking: Assignment
) -> None:
    argument = start_submission(assignment=asking, student=student).argument
    Trial.objects.create(owner=student, argument=argument, query="q", status="failed")
    trial = Trial.objects.create(owner=student, argument=argument, query="q", status="overruled")
    client.force_login(student)
    page = client.get(f"/assignments/{asking.pk}/").content.decode()
    assert "overruled" in page and f'href="/trials/{trial.pk}/"' in page
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{asking.pk}/grid/").content.decode()
    assert '<td class="asked-trial"><strong>overruled</strong></td>' in grid
    assert '<td class="asked-stress">not started yet</td>' in grid
    csv_text = client.get(f"/admin/classroom/assignment/{asking.pk}/grid.csv").content.decode()
    header, row = csv_text.splitlines()[:2]
    assert header.endswith(",trial,stress_test") and row.endswith(",overruled,not started yet")


def test_it_adds_no_columns_when_nothing_else_is_asked(
    client: Client, student: Any, teacher: Any, assignment: Assignment
) -> None:
    start_submission(assignment=assignment, student=student)
    client.force_login(teacher)
    grid = client.get(f"/admin/classroom/assignment/{assignment.pk}/grid/").content.decode()
    assert "asked-trial" not in grid and "asked-stress" not in grid
    client.force_login(student)
    assert "also asks for" not in client.get(f"/assignments/{assignment.pk}/").content.decode()


def test_it_offers_the_stress_test_where_a_trial_cannot_run_without_the_ai_service(
    client: Client, student: Any, asking: Assignment, no_anthropic_key: None
) -> None:
    argument = start_submission(assignment=asking, student=student).argument
    argument.completed_at = timezone.now()
    argument.save()
    client.force_login(student)

    page = client.get(f"/assignments/{asking.pk}/").content.decode()

    # No button that can only be refused: the way forward that works without the service.
    assert f'action="/trials/argument/{argument.pk}/"' not in page
    assert "AI service, which is not set up yet" in page
    assert page.count(f'href="/arguments/{argument.pk}/stress/"') == 2
    assert "ANTHROPIC_API_KEY" not in page


def _assignment_form(classroom: Any, **fields: Any) -> dict[str, Any]:
    return {
        "classroom": classroom.pk,
        "title": "Trials",
        "prompt": "Is homework useful?",
        "language": "en",
        "coach_policy": "coach",
        "extensions-TOTAL_FORMS": "0",
        "extensions-INITIAL_FORMS": "0",
        **fields,
    }


def test_it_refuses_to_ask_for_a_trial_the_site_cannot_run(
    client: Client, teacher: Any, classroom: Any, no_anthropic_key: None
) -> None:
    client.force_login(teacher)

    form = client.get("/admin/classroom/assignment/add/").content.decode()
    refused = client.post(
        "/admin/classroom/assignment/add/", _assignment_form(classroom, asks_trial="on")
    )
    stress = client.post(
        "/admin/classroom/assignment/add/", _assignment_form(classroom, asks_stress_test="on")
    )

    # The instructor reads why on the form, with the server variable to give whoever runs it.
    assert "trials need the AI service" in form and "critical questions" in form
    assert refused.status_code == 200 and "ANTHROPIC_API_KEY" in refused.content.decode()
    assert stress.status_code == 302
    assert list(Assignment.objects.values_list("asks_trial", "asks_stress_test")) == [(False, True)]


def test_it_keeps_an_older_assignment_that_asks_for_a_trial_editable(
    client: Client, teacher: Any, asking: Assignment, no_anthropic_key: None
) -> None:
    client.force_login(teacher)
    response = client.post(
        f"/admin/classroom/assignment/{asking.pk}/change/",
        _assignment_form(asking.classroom, title="Renamed", asks_trial="on", asks_stress_test="on"),
    )
    assert response.status_code == 302
    asking.refresh_from_db()
    assert asking.title == "Renamed" and asking.asks_trial
