"""Answers to a question about a step: what it is, its neighbours, an example elsewhere."""

from __future__ import annotations

import re

import pytest

from coach.explain import DEFINITIONS, DIFFERENCES, EXAMPLES, explain
from coach.steps import STEP_IDS


def sentences(text: str) -> set[str]:
    return {s.strip() for s in re.split(r"(?<=[.!?…»\"])\s+", text) if s.strip()}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("step", STEP_IDS)
def test_it_has_every_part_of_an_answer_for_every_step(step: str, language: str) -> None:
    said = explain([step], language=language, current_step=step)
    assert DEFINITIONS[step][language] in said and DIFFERENCES[step][language] in said
    assert any(example.elements[step].rstrip(".") in said for example in EXAMPLES[language])


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_repeated_question_gets_what_was_not_said_and_another_example(language: str) -> None:
    first = explain(["warrant"], language=language, current_step="warrant")
    again = explain(["warrant"], language=language, current_step="warrant", previous=first)
    assert again and not sentences(first) & sentences(again)


@pytest.mark.parametrize(
    ("title", "language", "topic"),
    [
        ("Trees in our streets", "en", "a later start to the school day"),
        ("Homework at school", "en", "trees in town streets"),
        ("Más árboles en las calles", "es", "empezar más tarde la jornada escolar"),
    ],
)
def test_its_example_is_on_another_topic_than_the_students(
    title: str, language: str, topic: str
) -> None:
    said = explain(["claim"], language=language, current_step="claim", title=title)
    assert topic in said
