"""Confirmation and rewrite-request detection, English and Spanish, any case/accents/punctuation."""

from __future__ import annotations

import pytest

from coach.intents import is_confirmation, is_rewrite_request

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
