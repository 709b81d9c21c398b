"""coach.text.fold: the folded form the intents and heuristics match on."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from coach.text import fold


def reference_fold(text: str) -> str:
    """The plain reading of the rule, character by character (an independent implementation)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w]+", " ", stripped).replace("_", " ").split())


def test_it_folds_case_accents_and_punctuation():
    assert fold("¡SÍ, me sirve!") == "si me sirve"
    assert fold("Está  bien_ya") == "esta bien ya"
    assert fold("Ångström — naïve café") == "angstrom naive cafe"


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=200))
def test_it_folds_any_text_as_the_plain_rule_does(text):
    assert fold(text) == reference_fold(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="ascii"), max_size=200))
def test_it_folds_ascii_text_as_the_plain_rule_does(text):
    assert fold(text) == reference_fold(text)
