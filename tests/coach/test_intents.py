"""What a message asks for, English and Spanish, any case/accents/punctuation: a
confirmation, a rewrite, a request to write it, a question about the step, or an attempt."""

from __future__ import annotations

import pytest

from coach.intents import Intent, classify, is_confirmation, is_rewrite_request, is_write_request

CONFIRMATIONS = [
    "yes", "Yes!", "YES.", "ok", "OK!!", "okay", "that works", "That works.", "use that",
    "Use that, thanks!", "yes please", "sounds good", "go ahead", "perfect", "yes, that works",
    "sí", "Sí", "SÍ!!", "si", "sí, me sirve", "Me sirve.", "me sirve", "definitivamente está bien",
    "Definitivamente esta bien!", "está bien", "de acuerdo", "vale", "¡Perfecto!", "claro que sí",
    "ok gracias", "sí, por favor",
]  # fmt: skip

NOT_CONFIRMATIONS = [
    "", "no", "No.", "not really", "ok but make it shorter", "yes, but the claim is too broad",
    "that doesn't work", "no me sirve", "sí, pero falta la fuente", "Cities should ban cars.",
    "why?", "¿por qué?", "maybe",
]  # fmt: skip

REWRITES = [
    "rewrite it", "Rewrite this please", "please improve it", "Can you improve it?", "fix it",
    "Could you rephrase that?", "help me word it", "Help me word this claim.", "polish it",
    "my claim: cities should ban cars. can you make it better?", "Reescribe mi afirmación",
    "reescríbelo", "mejóralo", "Mejora el texto", "arregla esto", "¿Puedes mejorarlo?",
    "por favor, arréglalo", "ayúdame a redactar la garantía", "lo puedes reformular?",
]  # fmt: skip

NOT_REWRITES = [
    "Bike lanes improve safety.", "Cities should fix their roads first.", "yes", "sí, me sirve",
    "Los carriles bici mejoran la seguridad.", "", "What is a warrant?",
]  # fmt: skip


@pytest.mark.parametrize("message", CONFIRMATIONS)
def test_it_recognises_a_confirmation(message: str) -> None:
    assert is_confirmation(message)


@pytest.mark.parametrize("message", NOT_CONFIRMATIONS)
def test_it_does_not_mistake_content_or_doubt_for_a_confirmation(message: str) -> None:
    assert not is_confirmation(message)


@pytest.mark.parametrize("message", REWRITES)
def test_it_recognises_a_rewrite_request(message: str) -> None:
    assert is_rewrite_request(message)


@pytest.mark.parametrize("message", NOT_REWRITES)
def test_it_does_not_mistake_the_students_content_for_a_rewrite_request(message: str) -> None:
    assert not is_rewrite_request(message)


# Questions about the step or the task, and requests to write it (coach.intents.classify) --

QUESTIONS = [
    # (message, current step, the elements it asks about)
    (
        "What does grounds backing mean? I don't get the difference from grounds.",
        "grounds",
        ("groundsBacking", "grounds"),
    ),
    ("¿Qué es la garantía?", "grounds", ("warrant",)),
    ("what is a claim?", "claim", ("claim",)),
    ("que es la garantia", "warrant", ("warrant",)),
    ("What is the difference between a warrant and its backing?", "claim",
     ("warrant", "warrantBacking")),
    ("No entiendo qué es el respaldo", "groundsBacking", ("groundsBacking",)),
    ("can you give me an example?", "qualifier", ("qualifier",)),
    ("What should I write here?", "rebuttal", ("rebuttal",)),
    ("¿Qué tengo que poner en este paso?", "claim", ("claim",)),
]  # fmt: skip

WRITE_REQUESTS = [
    "Can you write the claim for me?", "¿Me puedes escribir la tesis?", "write it for me",
    "could you just do it", "Escríbela por mí", "hazlo por mí", "Please write the rebuttal",
]  # fmt: skip

ATTEMPTS = [
    # Statements that open like questions or name elements are still the student's text.
    ("Air pollution is bad for people.", "grounds"),
    ("When cars are banned, streets get safer.", "warrant"),
    ("Cuando los coches salen del centro, el aire mejora.", "warrant"),
    ("Como muestra un estudio de 2020, el 40% de los viajes son cortos.", "grounds"),
    ("Writing by hand helps pupils remember.", "claim"),
    ("Escribir a mano ayuda a recordar.", "claim"),
    ("Should cities ban cars downtown and replace them with trams everywhere?", "claim"),
]  # fmt: skip


@pytest.mark.parametrize(("message", "step", "topics"), QUESTIONS)
def test_it_recognises_a_question_about_the_step_or_the_task(
    message: str, step: str, topics: tuple[str, ...]
) -> None:
    assert classify(message, step) == Intent("question", topics)


@pytest.mark.parametrize("message", WRITE_REQUESTS)
def test_it_recognises_a_request_to_write_the_element(message: str) -> None:
    assert is_write_request(message) and classify(message, "claim").kind == "write"


@pytest.mark.parametrize(("message", "step"), ATTEMPTS)
def test_it_takes_the_students_statements_as_attempts(message: str, step: str) -> None:
    assert classify(message, step).kind == "attempt"
    assert not is_write_request(message)
