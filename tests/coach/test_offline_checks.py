"""The offline coach checks what it can without a model, and does not repeat itself."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from coach.guards import GuardContext, apply_guards
from coach.heuristics import PROBLEM_MESSAGES, assess_step
from coach.offline import OfflineTurn, offline_reply
from coach.steps import STEP_IDS

PIZZA = {"claim": "Pizza is tasty"}
PIZZA_ES = {"claim": "La pizza es sabrosa"}
CARS = {
    "claim": "Cities should ban cars downtown.",
    "grounds": "In Madrid, air pollution fell 30% after cars were banned downtown in 2018.",
    "warrant": "If banning cars cuts pollution, cities should ban them downtown.",
}
COCHES = {
    "claim": "Las ciudades deberían prohibir los coches en el centro.",
    "grounds": "Según un estudio de 2019, la contaminación bajó un 30 % sin coches en el centro.",
    "warrant": "Si prohibir los coches reduce la contaminación, las ciudades deberían hacerlo.",
}


def problems(step: str, text: str, draft: dict[str, str] | None = None, language: str = "en"):
    return assess_step(step=step, text=text, draft=draft, language=language).problems


@pytest.mark.parametrize(
    ("step", "text", "draft", "language", "expected"),
    [
        # The examples.
        ("claim", "asdf qwerty zxcv banana", None, "en", ("not_words",)),
        ("grounds", "my uncle has 2 cars lol", PIZZA, "en", ("unrelated",)),
        ("claim", "asdf qwerty zxcv plátano", None, "es", ("not_words",)),
        ("grounds", "mi tío tiene 2 coches jaja", PIZZA_ES, "es", ("unrelated",)),
        # A topic is not a claim; a sum or "X is X" is not disputable.
        ("claim", "Mandatory school uniforms", None, "en", ("no_verb",)),
        ("claim", "Uniformes escolares obligatorios", None, "es", ("no_verb",)),
        ("claim", "2 + 2 = 4", None, "en", ("too_short", "no_verb", "truism")),
        ("claim", "Dos más dos son cuatro", None, "es", ("truism",)),
        ("claim", "War is war.", None, "en", ("truism",)),
        ("claim", "Is pizza tasty?", None, "en", ("is_question",)),
        # A warrant that links nothing; backings about something else.
        ("warrant", "If it rains, the streets get wet.", CARS, "en", ("unlinked",)),
        ("warrant", "Si llueve, las calles se mojan siempre.", COCHES, "es", ("unlinked",)),
        ("warrantBacking", "my cat is orange and has studies", CARS, "en", ("unsupported",)),
        ("qualifier", "maybe", None, "en", ()),
        ("qualifier", "en general", None, "es", ()),
        ("qualifier", "la pizza", None, "es", ("no_degree_word",)),
        ("rebuttal", "unless transit breaks down", None, "en", ()),
        ("rebuttal", "Los coches son ruidosos.", None, "es", ("no_exception",)),
    ],
)
def test_it_finds_what_is_wrong(
    step: str, text: str, draft: Any, language: str, expected: tuple[str, ...]
) -> None:
    assert problems(step, text, draft, language) == expected


@pytest.mark.parametrize(
    ("step", "text", "draft", "language"),
    [
        ("claim", "Pizza is tasty", None, "en"),
        ("claim", "Cities should ban cars downtown.", None, "en"),
        ("claim", "Homework improves learning", None, "en"),
        ("claim", "Students learn better with music.", None, "en"),
        ("claim", "Las ciudades deberían prohibir los coches en el centro.", None, "es"),
        ("claim", "La tarea mejora el aprendizaje.", None, "es"),
        ("claim", "Las redes sociales dañan la salud mental de los adolescentes", None, "es"),
        ("grounds", "In a 2023 survey, 80% of 500 people said pizza tastes good.", PIZZA, "en"),
        ("grounds", "En una encuesta, el 80 % de la gente dijo que la pizza es rica.", PIZZA_ES, "es"),
        # A cited source counts even without a shared word.
        ("grounds", "A 2019 OECD report found 30% less pollution in Madrid.", CARS, "en"),
        ("warrant", CARS["warrant"], CARS, "en"),
        ("warrant", COCHES["warrant"], COCHES, "es"),
        # Naming both grounds and claim links them even without a rule word.
        ("warrant", "Less pollution downtown is a reason for cities to ban cars.", CARS, "en"),
        ("groundsBacking", "The city's air quality agency published the data in 2019.", CARS, "en"),
        ("warrantBacking", "Public health research links car pollution to illness.", CARS, "en"),
        ("warrantBacking", "La investigación en salud pública vincula la contaminación y los coches.", COCHES, "es"),
    ],
)  # fmt: skip
def test_it_accepts_real_elements(step: str, text: str, draft: Any, language: str) -> None:
    assert problems(step, text, draft, language) == ()


def turn(message: str, *, step: str = "claim", language: str = "en", **fields: Any) -> OfflineTurn:
    return OfflineTurn(
        step=step,
        language=language,
        message=message,
        draft_text=fields.get("draft_text", ""),
        step_messages=fields.get("step_messages", ()),
        pending_proposal=fields.get("pending_proposal"),
        draft=fields.get("draft", {}),
        previous_reply=fields.get("previous_reply", ""),
    )


@pytest.mark.parametrize(
    ("message", "step", "language", "draft", "says"),
    [
        ("asdf qwerty zxcv banana", "claim", "en", {}, "I do not recognise most of its words"),
        ("my uncle has 2 cars lol", "grounds", "en", PIZZA, "relates to your claim"),
        ("asdf qwerty zxcv plátano", "claim", "es", {}, "no reconozco la mayoría"),
        ("mi tío tiene 2 coches jaja", "grounds", "es", PIZZA_ES, "se relaciona con tu afirmación"),
    ],
)
def test_it_does_not_praise_nonsense(
    message: str, step: str, language: str, draft: dict[str, str], says: str
) -> None:
    reply = offline_reply(turn(message, step=step, language=language, draft=draft))
    assert says in reply.assistantText
    assert "works as" not in reply.assistantText and "funciona como" not in reply.assistantText
    assert reply.proposedUpdate is None and not reply.shouldAdvance


def test_it_proposes_no_gibberish_even_when_the_student_confirms_it() -> None:
    reply = offline_reply(turn("yes", step_messages=["asdf qwerty zxcv banana"]))
    assert reply.proposedUpdate is None and "I do not recognise" in reply.assistantText


def test_it_praises_real_grounds_for_the_claim() -> None:
    grounds = "In a 2023 survey, 80% of 500 people said pizza tastes good."
    reply = offline_reply(turn(grounds, step="grounds", draft=PIZZA))
    assert "works as grounds" in reply.assistantText or "as grounds" in reply.assistantText


def sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"(?<=[.!?…])\s+|\n+", text) if s.strip()}


def converse(messages: list[str], *, step: str, language: str, draft: dict[str, str]) -> list[str]:
    """What the student would read, turn after turn (the guards append the question)."""
    said: list[str] = []
    earlier: list[str] = []
    for message in messages:
        reply = offline_reply(
            turn(
                message,
                step=step,
                language=language,
                step_messages=tuple(earlier),
                draft=draft,
                previous_reply=said[-1] if said else "",
            )
        )
        context = GuardContext(current_step=step, draft_text="", is_first_turn=not earlier)
        said.append(apply_guards(result=reply, context=context).result.assistantText)
        if message.strip():
            earlier.append(message)
    return said


@pytest.mark.parametrize("language", ["en", "es"])
def test_it_varies_its_words_when_the_student_repeats_an_attempt(language: str) -> None:
    said = converse(["", *["cars are bad"] * 4], step="grounds", language=language, draft=CARS)
    for before, after in zip(said, said[1:], strict=False):
        assert not sentences(before) & sentences(after), (before, after)
    assert len(set(said)) == len(said)


MESSAGES = st.one_of(
    st.sampled_from(
        [
            "",
            "yes",
            "sí",
            "what is this?",
            "fix it",
            "cars are bad",
            "asdf qwerty",
            "unless it rains",
            "probably",
            "In 2020 a survey found 30% less traffic downtown.",
            "Las ciudades deberían prohibir los coches.",
        ]
    ),
    st.text(max_size=60),
)


@settings(max_examples=60, deadline=None)
@given(
    messages=st.lists(MESSAGES, min_size=2, max_size=6),
    step=st.sampled_from(STEP_IDS),
    language=st.sampled_from(["en", "es"]),
)
def test_it_never_says_a_sentence_of_its_previous_reply(
    messages: list[str], step: str, language: str
) -> None:
    said = converse(messages, step=step, language=language, draft=CARS)
    for before, after in zip(said, said[1:], strict=False):
        assert not sentences(before) & sentences(after)


@settings(max_examples=80, deadline=None)
@example(text="\ud800 lone surrogate \x00 nul", step="claim", language="en")
@example(text="𝔞𝔟𝔠 straße İstanbul ﬁne", step="grounds", language="es")
@given(
    text=st.text(max_size=120),
    step=st.sampled_from(STEP_IDS),
    language=st.sampled_from(["en", "es"]),
)
def test_every_problem_it_finds_has_words_for_the_student(
    text: str, step: str, language: str
) -> None:
    found = problems(step, text, CARS, language)
    assert all(problem in PROBLEM_MESSAGES for problem in found)
    assert assess_step(step=step, text=text, draft=CARS, language=language).ok == (not found)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("bcdfghjklmnpqrstvwxz", min_size=3, max_size=8), min_size=2, max_size=6))
def test_keyboard_mash_is_never_a_claim(words: list[str]) -> None:
    # Two mashed words or more beside a real one: one unknown word alone may be a typo.
    assert "not_words" in problems("claim", " ".join(words) + " banana")
