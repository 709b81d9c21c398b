"""The demo stress test: loaded without any API key, real semantics, idempotent."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from engine.models import DebateEvent, DebateStatus, LLMCall
from stresstests.models import Defence, StressTest

pytestmark = pytest.mark.django_db


def test_it_loads_the_demo_once_with_real_semantics(no_anthropic_key, client, ada) -> None:
    call_command("load_demo_stress_test")
    call_command("load_demo_stress_test")

    stress = StressTest.objects.get()
    debate = stress.debate
    assert debate.is_demo and debate.status == DebateStatus.DONE
    # Both objections that counted were answered; the third raised the conceded exception.
    assert debate.output["status"] == "grounded_in"
    assert len(debate.output["answered_by_rebuttal"]) == 1
    assert list(Defence.objects.values_list("status", flat=True)) == [
        "refused",
        "accepted",
        "accepted",
    ]
    assert not LLMCall.objects.exists()
    assert (
        DebateEvent.objects.filter(debate=debate, type="stress_status").count() == 6
    )  # student, validation, concessions, 3 answers
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "Your claim stands against every objection raised" in page
    assert 'name="answer"' not in page  # a demo cannot be answered
    replay = client.get(reverse("stresstests:replay", args=[stress.pk])).content.decode()
    for defence in Defence.objects.all():  # each answer in the student's words, with its fate
        assert escape(defence.text) in replay
    assert "Not accepted:" in replay and "Accepted: your answer now attacks" in replay


def test_it_says_a_key_is_needed_for_a_new_stress_test(
    no_anthropic_key, client, finished_argument
) -> None:
    call_command("load_demo_stress_test")

    page = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content.decode()

    assert "AI service is not set up yet" in page and "See the demo stress test" in page
    assert "ANTHROPIC_API_KEY" not in page  # a student never reads a server variable
    # The personas' run is refused; the critical questions are offered instead.
    response = client.post(reverse("stresstests:start", args=[finished_argument.pk]))
    assert response.status_code == 400
    assert 'name="offline"' in page


def test_it_says_the_result_in_spanish(no_anthropic_key, client, ada) -> None:
    call_command("load_demo_stress_test")
    stress = StressTest.objects.get()

    page = client.get(
        reverse("stresstests:detail", args=[stress.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()

    assert "Tu afirmación resiste todas las objeciones planteadas" in page
    assert "Ya respondida por tu refutación" in page


def test_it_speaks_the_referees_sentence_in_the_readers_language(
    no_anthropic_key, client, ada
) -> None:
    """An English argument read in Spanish: the scripted referee speaks as the site,
    so its sentence is shown in Spanish (lang="es"); the student's words stay English."""
    from tests.config.untranslated import text_nodes

    call_command("load_demo_stress_test")
    stress = StressTest.objects.get()
    refused = Defence.objects.get(status="refused")
    assert refused.explanation == "Your answer repeats your warrant instead of answering."

    page = client.get(
        reverse("stresstests:detail", args=[stress.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()

    assert '<span class="referee" lang="es">Tu respuesta repite tu garantía' in page
    spanish = " ".join(text for text, _behind in text_nodes(page))  # skips lang="en"
    assert "No aceptada" in spanish and refused.explanation not in page
    replay = client.get(
        reverse("stresstests:replay", args=[stress.pk]), HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    assert "Tu respuesta repite tu garantía" in replay and refused.explanation not in replay


def test_it_names_the_demo_s_personas_in_the_readers_language(
    no_anthropic_key, client, ada, settings
) -> None:
    # The objections and the graph named a built-in persona as stored ("by The
    # Innovator") on a Spanish page whose header said "El Innovador".
    call_command("load_demo_stress_test")
    stress = StressTest.objects.get()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"

    for name in ("detail", "replay"):
        page = client.get(reverse(f"stresstests:{name}", args=[stress.pk])).content.decode()
        assert "El Innovador" in page, name
        for english in ("The Innovator", "The Guardian", "The Empiricist"):
            assert english not in page, (name, english)
