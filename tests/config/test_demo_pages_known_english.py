"""The demo pages, asked for in Spanish, show none of the English a newcomer met on them.

The site-wide walk (test_no_english_on_spanish_pages.py) leaves out what the
database holds, so English that reached the rows as words (a gate's message,
a recorded event's sentence) or that the picture draws as a formal term (IN /
OUT / UNDEC in the graph) slipped past it. Here the demo pages are read in
Spanish and searched for those very strings: each one found is an English
sentence on a Spanish page, and their count must be 0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from io import StringIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command, get_commands
from django.db import transaction
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from engine.stop_messages import stop_sentence

pytestmark = pytest.mark.django_db

# What a reader met: the pattern, and what it is.
KNOWN_ENGLISH = [
    (r"<text[^>]*>(IN|OUT|UNDEC)</text>", "a graph's label drawn as a formal term"),
    (r"\((IN|OUT|UNDEC)\) —", "a graph node's tooltip with a formal term"),
    (r"\d+ (IN|OUT|UNDEC)\b", "a graph's description with formal terms"),
    (r"cites no registered claim", "an inquiry's gate message"),
    (r"is registered\. Register", "an inquiry's gate message"),
    (r"Its chains share one origin", "an inquiry's action"),
    (r"Nothing in the case file answers", "an inquiry's action"),
    (r"Round \d+ of \d+ is done", "a recorded stop's sentence"),
    (r"observer_critiques|advocate_rebuttal|sanad_breaker_challenge", "a raw stage id"),
    (r"Su contraseña|carácteres|introduzca", "Django's formal Spanish (usted)"),
    (r"which rests on|\bsince\b|on account of|\bunless\b", "the diagram's connectors"),
    (r">(Grounds|Warrant|Backing|Rebuttal|Claim|Qualifier)[^<]*<", "the diagram's names"),
]


@pytest.fixture(scope="module")
def demo_site(django_db_setup, django_db_blocker) -> Iterator[None]:
    with django_db_blocker.unblock(), transaction.atomic():
        settings.DEBUG = True  # seed_demo refuses public passwords otherwise
        try:
            loaders = sorted(name for name in get_commands() if name.startswith("load_demo_"))
            for command in ["seed_demo", *loaders]:
                call_command(command, stdout=StringIO())
        finally:
            settings.DEBUG = False
        yield
        transaction.set_rollback(True)


def _spanish(username: str | None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    if username:
        client.force_login(get_user_model().objects.get(username=username))
    return client


def _demo_pages() -> list[tuple[str | None, str]]:
    from coach.models import Argument
    from engine.models import Debate
    from stresstests.models import StressTest

    pages: list[tuple[str | None, str]] = [(None, reverse("coach:signup"))]
    prefixes = {"graph": "debates", "inquiry": "inquiries", "tournament": "tournaments"}
    # A stress test's run is read on the stress test's own page (below).
    for debate in Debate.objects.filter(format__in=prefixes).order_by("pk"):
        pages.append(("student", f"/{prefixes[debate.format]}/{debate.pk}/"))
        if debate.format == "graph":
            pages.append(("student", reverse("debates:live", args=[debate.pk])))
    # (A demo classmate who cannot sign in any more has pages nobody opens.)
    for stress in StressTest.objects.filter(argument__owner__is_active=True).order_by("pk"):
        pages.append((stress.argument.owner.get_username(), f"/stress/{stress.pk}/"))
    # An English argument read with a Spanish interface: the diagram is the page's words.
    student = get_user_model().objects.get(username="student")
    english = Argument.objects.create(
        owner=student,
        title="Later school start",
        language="en",
        claim="Schools should start at 9 a.m.",
        warrant="Rested students learn better.",
        rebuttal="Unless buses cannot run later.",
    )
    pages.append(("student", reverse("coach:argument_toulmin", args=[english.pk])))
    return pages


def _findings() -> list[str]:
    found = []
    for username, url in _demo_pages():
        response = _spanish(username).get(url)
        assert response.status_code == 200, url
        # The students' and the demos' own words are content: the argument's text is
        # marked lang="en"; drop those elements before searching.
        page = re.sub(
            r'<(p|span|td|div|h1)[^>]*lang="en"[^>]*>.*?</\1>', "", response.content.decode()
        )
        # A formal term behind its disclosure ("Término formal") is there on purpose.
        page = re.sub(
            r"<details[^>]*>\s*<summary>Término formal</summary>.*?</details>", "", page, flags=re.S
        )
        for pattern, what in KNOWN_ENGLISH:
            found += [f"{url}: {what}: {m.group(0)!r}" for m in re.finditer(pattern, page)]
    return found


@override_settings(SIGNUP_OPEN=True)
def test_it_shows_none_of_the_known_english_on_the_spanish_demo_pages(demo_site) -> None:
    found = _findings()
    print(f"\nEnglish sentences on Spanish demo pages: {len(found)}")
    assert found == []


def test_it_says_the_demo_debates_recorded_stops_in_spanish(demo_site) -> None:
    from engine.models import DebateEvent

    shown = []
    with translation.override("es"):
        for event in DebateEvent.objects.filter(debate__format="graph"):
            payload = event.payload if isinstance(event.payload, dict) else {}
            if payload.get("detail"):
                shown.append(stop_sentence(payload.get("code", ""), payload.get("params")))
    assert shown and None not in shown
    assert not [s for s in shown if re.search(r"\b(is done|Round)\b", s)]
    assert "ronda 2 de 2" in " ".join(shown)
