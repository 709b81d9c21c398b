"""The step validation table, in English and Spanish."""

from __future__ import annotations

import pytest

from coach.heuristics import PROBLEM_MESSAGES, RULES, assess_step, check_step, problem_message
from coach.steps import STEP_IDS
from coach.wording import has_verb, related_in_meaning
from tournaments import semantic

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


PHONES = {
    "claim": "Phones should not be allowed in class.",
    "grounds": "A 2015 study found test scores went up 6% after schools banned phones.",
}


def test_it_links_a_warrant_by_meaning_when_the_embeddings_say_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import coach.wording

    warrant = "if something distracts students, it hurts their grades"  # no shared word
    monkeypatch.setattr(coach.wording, "_cosine", lambda text, other: None)
    assert assess_step(step="warrant", text=warrant, draft=PHONES).problems == ("unlinked",)
    monkeypatch.setattr(coach.wording, "_cosine", lambda text, other: 0.45)
    assert assess_step(step="warrant", text=warrant, draft=PHONES).ok
    # Below the threshold, or in Spanish (an English-only model), the words decide alone.
    monkeypatch.setattr(coach.wording, "_cosine", lambda text, other: 0.2)
    assert not assess_step(step="warrant", text=warrant, draft=PHONES).ok
    monkeypatch.setattr(coach.wording, "_cosine", lambda text, other: 0.9)
    spanish = {"claim": "Los móviles deberían prohibirse.", "grounds": "Un estudio de 2015."}
    unrelated = "Si llueve, las calles se mojan."
    assert not assess_step(step="warrant", text=unrelated, draft=spanish, language="es").ok


@pytest.mark.skipif(not semantic.is_installed(), reason="the optional embeddings")
def test_it_tells_related_from_unrelated_english_with_the_real_embeddings() -> None:
    assert related_in_meaning(
        "if something distracts students, it hurts their grades", PHONES["grounds"]
    )
    assert not related_in_meaning("if you water plants they grow", PHONES["grounds"])


def test_it_does_not_refuse_evidence_for_sharing_no_word_with_the_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import coach.wording

    monkeypatch.setattr(coach.wording, "_cosine", lambda text, other: None)
    claim = {"claim": "Schools should start at 9 a.m. instead of 8 a.m."}
    observed = "for example in my first period half the class yawns all the time"
    assert assess_step(step="grounds", text=observed, draft=claim).ok
    # A bare figure is no such marker: it is too easy to have by chance.
    for off_topic in ("my dog ate my sandwich this morning lol", "my uncle has 2 cars lol"):
        assert "unrelated" in assess_step(step="grounds", text=off_topic, draft=claim).problems


def test_it_takes_a_backing_about_any_part_of_the_argument() -> None:
    draft = {
        "claim": "Deberían prohibir los deberes.",
        "grounds": "En una encuesta de mi clase, el 75 % duerme menos por los deberes.",
        "warrant": "Si algo les quita horas de sueño a los alumnos, el colegio no debería mandarlo.",
    }
    backing = "los medicos dicen que dormir poco baja las defensas"  # "dormir": the grounds'
    assert assess_step(step="warrantBacking", text=backing, draft=draft, language="es").ok
    cat = "mi gato es naranja y tiene estudios"
    assert not assess_step(step="warrantBacking", text=cat, draft=draft, language="es").ok


@pytest.mark.parametrize(
    "claim", ["Los deberes no sirven para aprender.", "Los móviles nunca se apagan en clase."]
)
def test_it_reads_a_spanish_verb_after_no_as_a_verb(claim: str) -> None:
    assert has_verb(claim, "es")


def test_it_still_finds_no_verb_in_a_spanish_topic() -> None:
    assert not has_verb("Uniformes obligatorios en los colegios", "es")
