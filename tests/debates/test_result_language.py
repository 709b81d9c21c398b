"""The result page's generated sentences (settling questions, flip conditions) in the page's language.

The stored outcome says them in English (it is also the JSON export); the page
says them again from their structured parts, so English must not drift from
what `argumentation.cruxes` writes, and Spanish must not fall back to English.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from argumentation.cruxes import settling_question as stored_question
from debates.demo import DEMO_FIXTURE
from debates.models import Debate
from debates.presenters import flip_condition, settling_question, stop_detail
from debates.stopping import budget_decision, round_decision
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
    assert "— La ronda 2 de 2 terminó." in body and "is done." not in body


def _details() -> list[str]:
    """Stop details as the stop check really writes them."""
    common = {"defect": None, "label_history": [{"A1": "IN"}] * 4, "undecided": 1}
    made = [
        round_decision(round=2, max_rounds=2, camps=2, new_valid_attacks=1, **common),
        round_decision(
            round=1, max_rounds=3, camps=1, new_valid_attacks=1, **common | {"undecided": 0}
        ),
        round_decision(round=3, max_rounds=5, camps=2, new_valid_attacks=1, **common),
        round_decision(round=1, max_rounds=5, camps=2, new_valid_attacks=0, **common),
        budget_decision(
            budget=Decimal("1.00"),
            spent=Decimal("0.995"),
            next_stage="attacks (round 2)",
            estimate=Decimal("0.0123"),
        ),
    ]
    return [decision.detail for decision in made] + [
        "All rounds are done.",
        "Round 0 produced no argument at all.",
        "Round 2: the validation call failed.",
        "Round 2: every persona's attack call failed.",
    ]


def test_it_says_each_stop_detail_in_spanish_and_leaves_english_as_stored() -> None:
    details = _details()
    assert len(set(details)) == len(details)
    with translation.override("en"):
        english = [stop_detail(debate=Debate(stop_detail=d)) for d in details]
    budget = 4
    assert english[:budget] + english[budget + 1 :] == details[:budget] + details[budget + 1 :]
    assert english[budget] == (
        "Budget: the next stage (attacks, round 2) would cost about $0.0123, "
        "but only $0.0050 of $1.00 is left."
    )
    with translation.override("es"):
        spanish = [stop_detail(debate=Debate(stop_detail=d)) for d in details]
    english_words = ("Round", "round", "camps", "Budget", "done", "failed")
    assert [s for s in spanish if any(word in s for word in english_words)] == []
    assert spanish[0] == "La ronda 2 de 2 terminó."
    assert "0,0123" in spanish[budget] and "ataques" in spanish[budget]
    # An unknown detail is shown as it was stored, rather than lost.
    assert stop_detail(debate=Debate(stop_detail="Something new.")) == "Something new."
