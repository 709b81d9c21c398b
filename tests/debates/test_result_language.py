"""The result page's generated sentences (settling questions, flip conditions) in the page's language.

The stored outcome says them in English (it is also the JSON export); the page
says them again from their structured parts, so English must not drift from
what `argumentation.cruxes` writes, and Spanish must not fall back to English.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from argumentation.cruxes import settling_question as stored_question
from debates.demo import DEMO_FIXTURE
from debates.models import Debate
from debates.presenters import flip_condition, settling_question
from tests.trials.factories import make_user

OUTPUT = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))["output"]


def test_it_says_in_english_exactly_what_the_stored_outcome_says() -> None:
    with translation.override("en"):
        assert [settling_question(c) for c in OUTPUT["cruxes"]] == [
            c["settlingQuestion"] for c in OUTPUT["cruxes"]
        ]
        assert [flip_condition(f) for f in OUTPUT["flipConditions"]] == [
            f["condition"] for f in OUTPUT["flipConditions"]
        ]
        odd = {"assumption": "  Cars   are\nloud. "}
        assert settling_question(odd) == stored_question(odd["assumption"])


def test_it_says_them_in_spanish() -> None:
    with translation.override("es"):
        question = settling_question({"assumption": "Los autos hacen ruido."})
        one = flip_condition({"argument": "A2", "defeatedBy": ["A12"]})
        two = flip_condition({"argument": "A2", "defeatedBy": ["A12", "A13"]})
    assert question == "¿Qué evidencia mostraría si es cierto que «Los autos hacen ruido»?"
    assert one == "A2 volvería a sostenerse si se derrotara A12."
    assert two == "A2 volvería a sostenerse si se derrotaran A12, A13."


@pytest.mark.django_db
def test_the_spanish_result_page_has_no_english_sentence_of_the_outcome(client: Client) -> None:
    call_command("load_demo_debate", verbosity=0)
    client.force_login(make_user("ana"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    body = client.get(f"/debates/{Debate.objects.get(is_demo=True).pk}/").content.decode()
    assert "¿Qué evidencia mostraría si es cierto que" in body
    assert "volvería a sostenerse si se derrotara" in body
    assert "What evidence would show" not in body and "would stand again" not in body
