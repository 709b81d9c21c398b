"""Scheme detection against labelled warrants, English and Spanish.

`scheme_warrants.json` (beside this file) holds warrants as students write
them, labelled by the argument scheme they use (Walton, Reed & Macagno 2008):
``warrants`` (ten or more per scheme and language; some with grounds citing a
study, which must not decide the scheme) and ``held_out`` (written after the
patterns were, never tuned on). The issue's threshold: schemes right >= 80%
in each language, on each set.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from argumentation.scheme_cues import FALLBACK, detect_scheme
from argumentation.schemes import SCHEMES, identify_scheme, reword

DATA = json.loads(Path(__file__).with_name("scheme_warrants.json").read_text(encoding="utf-8"))
ALL = DATA["warrants"] + DATA["held_out"]


def _elements(item: dict) -> dict[str, str]:
    return {"claim": "x", "grounds": item.get("grounds", ""), "warrant": item["warrant"]}


def accuracy(items: list[dict]) -> dict[str, float]:
    right, total = Counter(), Counter()
    for item in items:
        total[item["language"]] += 1
        right[item["language"]] += detect_scheme(_elements(item)) == item["scheme"]
    return {language: right[language] / total[language] for language in total}


@pytest.mark.parametrize("part", ["warrants", "held_out"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_it_reads_at_least_four_schemes_in_five_right(part, language) -> None:
    assert accuracy(DATA[part])[language] >= 0.8


def test_it_holds_ten_warrants_per_scheme_and_language() -> None:
    counts = Counter((i["scheme"], i["language"]) for i in DATA["warrants"])
    for scheme in SCHEMES:
        if scheme.code != FALLBACK:
            assert counts[(scheme.code, "en")] >= 10 and counts[(scheme.code, "es")] >= 10


@pytest.mark.parametrize(
    ("warrant", "grounds"),
    [
        (
            "If students sleep more, they learn better, because tired students cannot concentrate.",
            "A study published in the Journal of Clinical Sleep Medicine by experts found it.",
        ),
        (
            "Si los alumnos duermen más, aprenden mejor, porque los alumnos cansados no pueden "
            "concentrarse.",
            "Un estudio de expertos publicado en una revista científica lo halló.",
        ),
    ],
)
def test_it_reads_a_causal_warrant_as_cause_even_when_the_grounds_cite_experts(
    warrant, grounds
) -> None:
    elements = {"claim": "x", "grounds": grounds, "warrant": warrant}
    assert identify_scheme(elements).code == "cause_to_effect"


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(ALL), st.sampled_from(["upper", "accents", "spaces"]))
def test_it_reads_a_warrant_the_same_in_capitals_without_accents_or_spaced(item, change) -> None:
    warrant = item["warrant"]
    changed = {
        "upper": warrant.upper(),
        "accents": _strip_accents(warrant),
        "spaces": "  " + warrant.replace(" ", "  \n"),
    }[change]
    assert detect_scheme({**_elements(item), "warrant": changed}) == detect_scheme(_elements(item))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL), st.sampled_from(ALL))
def test_it_lets_the_warrant_decide_whatever_the_grounds_say(item, other) -> None:
    alone = detect_scheme({"warrant": item["warrant"]})
    with_grounds = detect_scheme({"warrant": item["warrant"], "grounds": other["warrant"]})
    assert alone == FALLBACK or with_grounds == alone


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.code)
def test_it_reads_every_cue_phrase_as_its_own_scheme(scheme) -> None:
    for language in ("en", "es"):
        for cue in scheme.cues[language]:
            assert detect_scheme({"warrant": cue}) == scheme.code, cue


@pytest.mark.parametrize("scheme", SCHEMES, ids=lambda s: s.code)
def test_it_rewords_each_question_in_the_other_language(scheme) -> None:
    for question in scheme.questions:
        english, spanish = question.objection["en"], question.objection["es"]
        assert reword(english, "es") == spanish and reword(spanish, "en") == english
    assert reword("A persona's own words.", "es") is None
