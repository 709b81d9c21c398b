"""coach.judgment: known answers, and what holds for any text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach.judgment import (
    adds_nothing,
    agrees,
    copies,
    gives_a_reason,
    is_circular,
    is_non_answer,
    is_question,
    new_content,
    takes_a_position,
)

CLAIM = "Schools should start at 9 a.m. instead of 8 a.m."


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Homework should be banned because it should be banned.", "en", True),
        ("if homework is bad then homework is bad", "en", True),
        ("homework should be banned because its true", "en", True),
        ("Deberían prohibir los deberes porque deberían prohibirlos.", "es", True),
        ("hay que cambiar el horario porque sí", "es", True),
        ("Homework should be banned because it keeps students up at night.", "en", False),
        ("If students sleep more, they learn better.", "en", False),
        ("Si los alumnos duermen más, aprenden mejor.", "es", False),
        ("when students are distracted they learn less, so phones should go", "en", False),
    ],
)
def test_it_tells_a_circular_reason(text: str, language: str, expected: bool) -> None:
    assert is_circular(text, language) is expected


@pytest.mark.parametrize(
    ("text", "other", "expected"),
    [
        (CLAIM, CLAIM, True),
        ("schools should start at 9 am instead of 8 am", CLAIM, True),
        ("A 2017 study of 9,000 students found more sleep.", CLAIM, False),
    ],
)
def test_it_tells_a_copy(text: str, other: str, expected: bool) -> None:
    assert copies(text, other) is expected


@pytest.mark.parametrize(
    ("text", "other", "language", "expected"),
    [
        ("I think schools must start at 9 and not 8", CLAIM, "en", True),
        ("everyone knows schools should start at 9", CLAIM, "en", True),
        ("creo que los móviles no deberían estar en clase", "Los móviles no deberían estar en clase.", "es", True),
        # The claim's own numbers are not evidence; a new one is.
        ("schools start at 9 in 12 towns", CLAIM, "en", False),
        ("In 2017, 9,000 students slept more when schools started at 9.", CLAIM, "en", False),
        ("", CLAIM, "en", False),
        ("anything", "", "en", False),
    ],
)  # fmt: skip
def test_it_tells_a_restatement(text: str, other: str, language: str, expected: bool) -> None:
    assert adds_nothing(text, other, language) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("should homework be banned", True),
        ("¿Son malos los móviles?", True),
        ("por que empieza tan pronto el instituto", True),
        ("do phones distract students??", True),
        ("Do not give homework on weekends.", False),
        ("Homework should be banned.", False),
        ("Cuando llueve, la gente coge el coche.", False),
    ],
)
def test_it_tells_a_question(text: str, expected: bool) -> None:
    assert is_question(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Homework is work that teachers give you to do at home.", False),
        ("Los deberes se hacen en casa.", False),
        ("Phones were invented in 1876", False),
        ("Homework should be banned.", True),
        ("homework is a waste of time", True),
        ("El móvil distrae a los alumnos.", True),
        ("Empezar a las 8 es demasiado pronto.", True),
    ],
)
def test_it_tells_a_position_from_a_fact(text: str, expected: bool) -> None:
    assert takes_a_position(text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("idk", True), ("no", True), ("yes", True), ("ni idea", True), ("i dont know lol", True),
     ("no homework on weekends", False), ("probably", False)],
)  # fmt: skip
def test_it_tells_a_non_answer(text: str, expected: bool) -> None:
    assert is_non_answer(text) is expected


def test_it_tells_a_reason_in_a_qualifier() -> None:
    assert gives_a_reason("probably because teens are tired")
    assert gives_a_reason("seguro, ya que son aburridos")
    assert not gives_a_reason("in most cases")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("there are no exceptions", True),
        ("estoy de acuerdo con que empiece más tarde", True),
        ("unless schools should start at 9 instead of 8", True),
        ("unless buses cannot run later", False),
        ("a menos que los autobuses no puedan cambiar de horario", False),
    ],
)
def test_it_tells_a_rebuttal_that_agrees(text: str, expected: bool) -> None:
    assert agrees(text, CLAIM, "en") is expected


WORDS = st.lists(
    st.sampled_from(
        [
            "homework",
            "school",
            "students",
            "sleep",
            "phones",
            "banned",
            "should",
            "better",
            "because",
            "if",
            "then",
            "unless",
            "deberes",
            "alumnos",
            "duermen",
            "porque",
            "si",
            "study",
            "2017",
            "70%",
            "idk",
            "yes",
            "no",
            "the",
            "a",
            "is",
            "are",
        ]
    ),
    min_size=0,
    max_size=12,
).map(" ".join)


@settings(max_examples=120, deadline=None)
@given(text=st.one_of(WORDS, st.text(max_size=80)), other=st.one_of(WORDS, st.text(max_size=80)))
def test_what_holds_for_any_text(text: str, other: str) -> None:
    # A text is a copy of itself; copying is symmetric; a copy with content adds nothing.
    assert copies(text, text) == bool(text.strip() and any(ch.isalnum() for ch in text))
    assert copies(text, other) == copies(other, text)
    assert not new_content(text, text)
    # Nothing new against `other` means nothing new against `other` with more words.
    if adds_nothing(text, other):
        assert adds_nothing(text, f"{other} {text}")
    for check in (is_question, takes_a_position, is_non_answer, gives_a_reason):
        assert isinstance(check(text), bool)
    assert isinstance(is_circular(text), bool) and isinstance(agrees(text, other), bool)
