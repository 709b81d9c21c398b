"""The start page (cost first, defaults offered, limits) and hostile input: never a 5xx."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.models import Debate
from stresstests import services
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_the_cost_before_the_run_and_offers_default_personas(
    client, finished_argument, personas, fake_anthropic
) -> None:
    page = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content.decode()

    cost = services.estimate(services.default_personas())
    assert f"${cost:.2f}" in page
    assert page.count(" checked>") == 3


def test_it_refuses_a_run_over_the_rate_limit_in_plain_words(
    client, settings, ada, finished_argument, personas, stress_model
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "stress_test": (1, 3600)}
    url = reverse("stresstests:start", args=[finished_argument.pk])
    ids = [str(p.pk) for p in personas]
    first = client.post(url, {"personas": ids})
    assert first.status_code == 302
    settle(finished_argument.stress_tests.get())

    second = client.post(url, {"personas": ids})

    assert second.status_code == 400
    assert Debate.objects.filter(format="stress").count() == 1
    assert 'role="alert"' in second.content.decode()


def test_it_refuses_an_unfinished_argument(
    client, finished_argument, personas, fake_anthropic
) -> None:
    finished_argument.completed_at = None
    finished_argument.save()

    page = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content.decode()

    assert "Finish all seven steps in the coach first." in page


@pytest.mark.parametrize(
    "data",
    [
        {"attack": "A2", "answer": "a\x00b"},
        {"attack": "A2", "answer": "x" * 5000},
        {"attack": "Z" * 500, "answer": "fine"},
        {"attack": "A1", "answer": "my own argument"},
        {},
    ],
)
def test_it_answers_hostile_defences_without_a_5xx(
    client, ada, finished_argument, personas, stress_model, data
) -> None:
    stress = settle(
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
        )
    )

    response = client.post(
        reverse("stresstests:defend", args=[stress.pk]), data, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert not stress.defences.exists()


def test_it_answers_hostile_persona_ids_without_a_5xx(client, finished_argument) -> None:
    url = reverse("stresstests:start", args=[finished_argument.pk])
    response = client.post(url, {"personas": ["x", "-1", "99999999999999999999999"]})
    assert response.status_code == 400


def test_it_shows_built_in_personas_in_the_readers_language_and_others_as_written(
    client, settings, finished_argument, fake_anthropic
) -> None:
    from debates.persona_words import BUILT_IN
    from engine.models import Persona

    Persona.objects.all().delete()
    Persona.objects.create(name="The Empiricist", worldview=BUILT_IN["The Empiricist"])
    # A built-in persona whose worldview an instructor rewrote, and one of their own.
    Persona.objects.create(name="The Guardian", worldview="Mi propia visión, escrita a mano.")
    Persona.objects.create(name="Ms Reyes", worldview="Argues from the classroom.")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    start = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content.decode()
    assert "El Empirista" in start and "Confía más en los resultados medidos" in start
    assert "The Empiricist" not in start and "Trusts measured outcomes" not in start
    assert "El Guardián" in start and "Mi propia visión, escrita a mano." in start
    assert "Ms Reyes" in start and "Argues from the classroom." in start
    form = client.get("/debates/new/").content.decode()
    assert "El Empirista" in form and "The Empiricist" not in form and "Ms Reyes" in form
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(reverse("stresstests:start", args=[finished_argument.pk])).content
    assert "The Empiricist" in english.decode() and "Trusts measured outcomes" in english.decode()
