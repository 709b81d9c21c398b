"""Sentences that name a step use its own noun phrase: no "a grounds", no "tu datos"."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from coach.models import Argument
from coach.offline import _REJECTED, _SAY, pick
from coach.steps import STEP_IDS, phrases_for

# What gluing an article to a step's label produced before.
WRONG = re.compile(
    r"\ba grounds\b|\bas a grounds\b|\ba Grounds\b|\btu datos\b|\btu Datos\b|\bde el\b|"
    r"\b(?:a|the|your) (?:Claim|Grounds|Warrant|Qualifier|Rebuttal)\b|"
    r"\b(?:tu|la|el|los) (?:Afirmación|Datos|Garantía|Calificador|Refutación)\b|\{|\}"
)


def every_phrasing(language: str, step: str) -> list[str]:
    nouns = phrases_for(step, language)
    values = {"your": nouns.your, "the": nouns.the, "as_": nouns.as_}
    values |= {"problems": "it is short", "text": "draft", "accept": '"Accept"', "use": '"Use"'}
    table = [*_SAY[language].values(), _REJECTED[language]]
    return [
        pick(variants, turn_count=count, **values)
        for variants in table
        for count in range(len(variants))
    ]


@pytest.mark.parametrize("step", STEP_IDS)
@pytest.mark.parametrize("language", ["en", "es"])
def test_it_names_every_step_with_its_own_noun_phrase(step: str, language: str) -> None:
    for sentence in every_phrasing(language, step):
        assert not WRONG.search(sentence), sentence


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["That works as grounds", "Let's work on your grounds"]),
        ("es", ["Eso funciona como datos", "Trabajemos en tus datos"]),
    ],
)
def test_it_says_the_issues_sentences_grammatically(language: str, expected: list[str]) -> None:
    said = " ".join(every_phrasing(language, "grounds"))
    for sentence in expected:
        assert sentence in said


@pytest.mark.django_db
def test_the_page_names_the_proposed_step_grammatically(student: Any, argument: Argument) -> None:
    argument.current_step = "grounds"
    argument.claim = "Cities should ban cars downtown."
    argument.pending_proposal = {"field": "grounds", "value": "A 2019 study ...", "rationale": ""}
    argument.save()
    client = Client()
    client.force_login(student)
    page = client.get(f"/coach/{argument.pk}/").content.decode()
    assert "The coach's proposal for the grounds" in page
    assert "Write the grounds yourself" in page
    assert "a grounds" not in page and "a Grounds" not in page
