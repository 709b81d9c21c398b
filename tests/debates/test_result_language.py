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
from debates.presenters import flip_condition, settling_question, stop_detail
from debates.stopping import round_decision
from engine.models import Debate
from engine.stop_messages import legacy_code
from engine.stop_reasons import StopReason
from engine.stopping import StopDecision, budget_decision
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


def _decisions() -> list[StopDecision]:
    """Stops as the stop check, the stages and the engine really make them."""
    common = {"defect": None, "label_history": [{"A1": "IN"}] * 4, "undecided": 1}
    return [
        round_decision(round=2, max_rounds=2, camps=2, new_valid_attacks=1, **common),
        round_decision(
            round=1, max_rounds=3, camps=1, new_valid_attacks=1, **common | {"undecided": 0}
        ),
        round_decision(round=3, max_rounds=5, camps=2, new_valid_attacks=1, **common),
        round_decision(round=1, max_rounds=5, camps=2, new_valid_attacks=0, **common),
        budget_decision(
            budget=Decimal("1.00"),
            spent=Decimal("0.995"),
            next_stage="attacks",
            round=2,
            estimate=Decimal("0.0123"),
        ),
        StopDecision.coded(StopReason.MAX_ROUNDS, "all_rounds_done"),
        StopDecision.coded(StopReason.CRITICAL_DEFECT, "no_opening_argument"),
        StopDecision.coded(StopReason.CRITICAL_DEFECT, "validation_failed", round=2),
        StopDecision.coded(StopReason.CRITICAL_DEFECT, "attacks_failed", round=2),
    ]


def _shown(decision: StopDecision) -> str:
    stored = Debate(
        stop_detail=decision.detail, stop_code=decision.code, stop_params=decision.params
    )
    return stop_detail(debate=stored)


def test_it_says_each_stop_in_the_readers_language_from_its_code() -> None:
    decisions = _decisions()
    assert len({d.code for d in decisions}) == len(decisions)
    with translation.override("en"):
        english = [_shown(d) for d in decisions]
    # The English page says what the stored sentence (for exports and the CLI) says.
    assert english == [d.detail for d in decisions]
    budget = 4
    assert english[budget] == (
        "The next stage (attacks, round 2) would cost about $0.0123, "
        "but only $0.0050 of $1.00 is left."
    )
    with translation.override("es"):
        spanish = [_shown(d) for d in decisions]
    english_words = ("Round", "round", "camps", "Budget", "done", "failed")
    assert [s for s in spanish if any(word in s for word in english_words)] == []
    assert spanish[0] == "La ronda 2 de 2 terminó."
    assert "0,0123" in spanish[budget] and "ataques" in spanish[budget]


def test_it_shows_a_stop_without_a_code_as_it_was_stored() -> None:
    # A row older than the codes that the migration could not read, or a code no one registered.
    with translation.override("es"):
        assert stop_detail(debate=Debate(stop_detail="Something new.")) == "Something new."
        odd = Debate(stop_detail="Kept.", stop_code="unknown_code", stop_params={"x": 1})
        assert stop_detail(debate=odd) == "Kept."


def test_it_reads_the_sentences_stored_before_the_codes_back_into_codes() -> None:
    for decision in _decisions():
        assert legacy_code(decision.detail) is None or legacy_code(decision.detail)[0] in {
            decision.code
        }
    assert legacy_code("Round 3 was the last round allowed.") == (
        "last_round_allowed",
        {"round": 3},
    )
    old_budget = (
        "Budget: the attacks (round 2) stage would cost about $0.0123 but only "
        "$0.0050 of $1.00 is left."
    )
    assert legacy_code(old_budget) == (
        "budget",
        {"stage": "attacks", "round": 2, "estimate": "0.0123", "left": "0.0050", "budget": "1.00"},
    )
    assert legacy_code("Something new.") is None


@pytest.mark.django_db
def test_the_spanish_pages_name_the_built_in_personas_in_spanish(client: Client) -> None:
    # The header said "El Guardián" while every argument, attack and graph node below
    # said "The Guardian" (the name stored with the debate).
    call_command("load_demo_debate", verbosity=0)
    client.force_login(make_user("ana"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    pk = Debate.objects.get(is_demo=True).pk

    result = client.get(f"/debates/{pk}/").content.decode()
    assert "El Guardián:" in result
    assert "The Guardian" not in result and "The Innovator" not in result
    # The replay draws its names from the stored events: the page gives it the map.
    replay = client.get(f"/debates/{pk}/replay/").content.decode()
    strings = json.loads(
        replay.split('id="debate-strings" type="application/json">')[1].split("<")[0]
    )
    assert strings["personaNames"]["The Guardian"] == "El Guardián"
