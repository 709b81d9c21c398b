"""A site without the AI service: no student page names a server variable, and no
button on a student page leads to a form that cannot be sent or a refusal.

Every student page that mentions the AI service is rendered with no key; each
must say so in plain words (the `_ai_not_configured.html` partial) and never
"ANTHROPIC_API_KEY", which only staff read. Then every button-link on those
pages is followed: a page whose submit button is disabled is a dead end.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from coach.models import Argument
from engine.models import Debate
from tests.classroom.support import work_for_an_assignment
from trials.models import Trial

pytestmark = pytest.mark.django_db

VARIABLE = "ANTHROPIC_API_KEY"
BUTTON_LINK = re.compile(r'<a class="button[^"]*" href="([^"]+)"')
DISABLED_SUBMIT = re.compile(r'<button type="submit"[^>]*\bdisabled\b')

ELEMENTS = {
    "claim": "Our school should start lessons at nine.",
    "grounds": "Teenagers who start at nine sleep 40 minutes more, a 2017 study found.",
    "warrant": "More sleep causes better attention in class.",
    "grounds_backing": "",
    "warrant_backing": "",
    "qualifier": "For most students",
    "rebuttal": "Unless buses cannot run later.",
}


@pytest.fixture
def site(no_anthropic_key: None) -> dict[str, Any]:
    users = get_user_model().objects
    teacher = users.create_user("teacher", is_staff=True)
    student = users.create_user("pupil")
    Debate.objects.create(topic="Demo: should cities ban cars?", is_demo=True, status="done")
    call_command("load_demo_trial", verbosity=0)
    argument = work_for_an_assignment(
        teacher=teacher,
        student=student,
        class_name="Civics",
        title="Start times",
        prompt="When should school start?",
        asks_trial=True,
        asks_stress_test=True,
    )
    Argument.objects.filter(pk=argument.pk).update(completed_at=timezone.now(), **ELEMENTS)
    failed = Trial.objects.create(
        owner=student, argument=argument, query="q", status="failed", failure="no_api_key"
    )
    return {
        "student": student,
        "teacher": teacher,
        "pages": [
            "/me/",
            "/trials/",
            "/trials/ask/",
            f"/trials/{Trial.objects.get(is_demo=True).pk}/",
            f"/trials/{failed.pk}/",
            f"/coach/{argument.pk}/",
            f"/arguments/{argument.pk}/stress/",
            f"/assignments/{argument.submission.assignment_id}/",
            "/debates/new/",
            f"/debates/{Debate.objects.get(is_demo=True).pk}/",
            "/tournaments/new/",
            "/inquiries/new/",
        ],
    }


def _get(client: Client, url: str, language: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.parametrize("language", ["en", "es"])
def test_it_never_shows_a_student_the_server_variable(site, language) -> None:
    client = Client()
    client.force_login(site["student"])
    for url in site["pages"]:
        assert VARIABLE not in _get(client, url, language), url
    said = _get(client, "/trials/ask/", language)
    plain = "AI service is not set up" if language == "en" else "servicio de IA"
    assert plain in said


def test_it_tells_staff_what_to_set(site) -> None:
    client = Client()
    client.force_login(site["teacher"])
    assert VARIABLE in _get(client, "/trials/ask/", "en")


def dead_ends(client: Client, pages: list[str]) -> list[tuple[str, str]]:
    """(page, link) for each button-link that leads to a form that cannot be sent."""
    found = []
    for url in pages:
        for link in set(BUTTON_LINK.findall(_get(client, url, "en"))):
            response = client.get(link)
            if response.status_code == 200 and DISABLED_SUBMIT.search(response.content.decode()):
                found.append((url, link))
    return found


def test_it_leads_no_student_button_to_a_form_that_cannot_be_sent(site) -> None:
    client = Client()
    client.force_login(site["student"])
    student_pages = [u for u in site["pages"] if not u.endswith("/new/")]

    assert dead_ends(client, student_pages) == []
    # What the dashboard offers instead: the demo trial and the demo debate.
    dashboard = _get(client, "/me/", "en")
    assert "See a demo trial" in dashboard and "See the demo debate" in dashboard


def test_it_does_not_tell_a_new_student_to_put_an_argument_on_trial(no_anthropic_key) -> None:
    client = Client()
    client.force_login(get_user_model().objects.create_user("newcomer"))
    dashboard = _get(client, "/me/", "en")
    assert "Trials need the site's AI service" in dashboard
    assert "put it on trial" not in dashboard
