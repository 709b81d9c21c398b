"""The offline coach measured on a labelled set of students' answers.

Flaws caught and good answers accepted must each be 90% or more, in English and
in Spanish; the figures are printed (`pytest -s`). The coach before coach.judgment
caught 3% / 3% of the flaws (en / es; 52% / 57% judged on the reply to the
attempt alone, before a "yes" put the words up) and accepted 100% / 100% of the
good answers.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from tests.coach.judgment_measure import measure
from tests.coach.judgment_set import CONTEXTS, FLAW_KINDS, HELD_OUT, ITEMS

THRESHOLD = 0.9
figures_once = cache(measure)


def test_the_set_has_every_kind_in_both_languages() -> None:
    kinds = Counter((item.kind, CONTEXTS[item.context]["language"]) for item in ITEMS)
    for kind in FLAW_KINDS:
        assert kinds[(kind, "en")] + kinds[(kind, "es")] >= 15, kind
        assert kinds[(kind, "en")] and kinds[(kind, "es")], kind
    assert kinds[("good", "en")] + kinds[("good", "es")] >= 80
    assert len(set(ITEMS)) == len(ITEMS)  # no item counted twice


@pytest.mark.parametrize("language", ["en", "es"])
def test_it_catches_flaws_and_accepts_good_answers(language: str) -> None:
    figures = figures_once()
    print(figures.report())  # noqa: T201 - the figures are the point of this test
    for item in figures.missed:
        print("missed:", item)  # noqa: T201
    print("held out:", measure(items=HELD_OUT).report())  # noqa: T201
    assert figures.rate("caught", language) >= THRESHOLD
    assert figures.rate("good", language) >= THRESHOLD
