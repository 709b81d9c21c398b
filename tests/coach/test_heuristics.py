"""The step validation table, in English and Spanish."""

from __future__ import annotations

import pytest

from coach.heuristics import PROBLEM_MESSAGES, RULES, check_step, problem_message
from coach.steps import STEP_IDS

PASSES = [
    ("claim", "Cities should ban private cars from their centres."),
    ("claim", "Las ciudades deberían prohibir los coches en el centro."),
    ("grounds", "A 2021 survey found 40% of car trips are under 3 km."),
    ("grounds", "I observed that the bus lane was empty most mornings."),
    ("grounds", "Según un informe municipal, la mitad de los viajes son cortos."),
    ("warrant", "When short trips dominate, people can switch to cycling."),
    ("warrant", "Si la mayoría de los viajes son cortos, la gente puede ir en bici."),
    ("groundsBacking", "The survey was peer-reviewed and sampled 5,000 households."),
    ("groundsBacking", "El censo fue publicado por el instituto nacional de estadística."),
    ("warrantBacking", "Transport research in Copenhagen supports this principle."),
    ("warrantBacking", "La investigación en urbanismo y la historia de Ámsterdam lo muestran."),
    ("qualifier", "Probably"),
    ("qualifier", "in most cases"),
    ("qualifier", "Probablemente, en la mayoría de las ciudades."),
    ("qualifier", "about 80% of the time"),
    ("rebuttal", "Unless public transport is unreliable."),
    ("rebuttal", "Except in cities with steep hills."),
    ("rebuttal", "A menos que el transporte público falle."),
    ("rebuttal", "Salvo en ciudades con muchas cuestas."),
]
FAILS = [
    ("claim", "", "empty"),
    ("claim", "Cars bad", "too_short"),
    ("claim", "Should cities ban cars downtown?", "is_question"),
    ("claim", "¿Deberían las ciudades prohibir los coches?", "is_question"),
    ("claim", "According to a 2021 survey, 40% of trips are short.", "looks_like_grounds"),
    ("claim", "Según un estudio, la mitad de los viajes son cortos.", "looks_like_grounds"),
    ("grounds", "Cars are bad for everybody around.", "no_evidence"),
    ("grounds", "Los coches son malos para todos.", "no_evidence"),
    ("warrant", "It is plainly obvious to me.", "no_principle"),
    ("groundsBacking", "Trust me on this one, really.", "no_source"),
    ("warrantBacking", "Everybody knows it, really.", "no_authority"),
    ("qualifier", "Sure.", "no_degree_word"),
    ("rebuttal", "Cars are noisy and dirty.", "no_exception"),
    ("rebuttal", "Los coches son ruidosos.", "no_exception"),
]


def test_it_has_one_rule_per_step_in_step_order() -> None:
    assert tuple(RULES) == STEP_IDS


@pytest.mark.parametrize(("step", "text"), PASSES)
def test_it_accepts_text_that_fits_the_step(step: str, text: str) -> None:
    assert check_step(step=step, text=text).problems == ()


@pytest.mark.parametrize(("step", "text", "problem"), FAILS)
def test_it_names_what_is_missing(step: str, text: str, problem: str) -> None:
    verdict = check_step(step=step, text=text)
    assert not verdict.ok and problem in verdict.problems


def test_it_explains_every_problem_in_both_languages() -> None:
    for problem, messages in PROBLEM_MESSAGES.items():
        assert set(messages) == {"en", "es"}
        assert problem_message(problem, "fr") == messages["en"]
