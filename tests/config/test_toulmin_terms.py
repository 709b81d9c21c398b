"""One Spanish word for each Toulmin element, the coach's, across the whole catalogue.

The coach names the elements (coach/steps.py): afirmación, datos, garantía,
respaldo, calificador, refutación. A message that names an element in English
must name it with the same Spanish word, so a student never reads "tesis" on
one page and "afirmación" on the next for their own claim; "tesis" is kept
for what a discussion or an inquiry argues about (the English "thesis").

The three ways an objection attacks (Prakken 2010, "An abstract framework for
argumentation with structured arguments": rebut, undermine, undercut) have
Spanish words of their own, apart from the rebuttal element: contradecir (la
afirmación), socavar (una premisa), cuestionar la inferencia.
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from coach.steps import STEPS

# English word (outside placeholders) -> the Spanish the translation must hold.
TERMS = {
    r"\bclaims?\b": r"\bafirmaci(?:ón|ones)\b",
    r"\bgrounds\b": r"\bdatos\b",
    r"\bwarrants?\b": r"\bgarantías?\b",
    r"\bbacking\b": r"\brespaldos?\b",
    r"\bqualifiers?\b": r"\bcalificador(?:es)?\b",
    r"\brebuttals?\b": r"\brefutaci(?:ón|ones)\b",
}
# Messages where the English word is not the Toulmin element, and why.
OTHER_SENSES = {
    "Advocate's rebuttal": "an inquiry agent's reply in a round, not the element",
}
# An objection's type -> the Spanish it must hold, and the words kept for the others.
ATTACKS = {
    r"\brebut(?:s|ted|ting)?\b": r"\bcontrad(?:ec|ic)\w*",
    r"\bundermin\w*": r"\bsocav\w*",
    r"\bundercut\w*": r"\bcuestion\w* la inferencia\b",
}
_PLACEHOLDER = re.compile(r"%\([^)]*\)[sdif]")


def _catalogue() -> list[tuple[str, str]]:
    with translation.override("es"):
        messages = trans_real.translation("es")._catalog
    pairs = []
    for key, text in messages.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if msgid and text:
            pairs.append((msgid.split("\x04", 1)[-1], text))
    return pairs


def test_it_names_each_toulmin_element_with_the_coachs_word() -> None:
    # The words checked here are the coach's own labels.
    labels = " ".join(step.label_es.lower() for step in STEPS)
    assert all(word in labels for word in ("afirmación", "datos", "garantía", "calificador"))
    wrong = [
        f"{msgid!r} -> {text!r}"
        for msgid, text in _catalogue()
        if msgid not in OTHER_SENSES
        for english, spanish in TERMS.items()
        if re.search(english, _PLACEHOLDER.sub(" ", msgid), re.I)
        and not re.search(spanish, text, re.I)
    ]
    assert wrong == []


def test_it_keeps_tesis_for_a_thesis() -> None:
    wrong = [
        f"{msgid!r} -> {text!r}"
        for msgid, text in _catalogue()
        if re.search(r"\btesis\b", text, re.I) and not re.search(r"\bthesis\b", msgid, re.I)
    ]
    assert wrong == []


def test_it_says_cost_one_way() -> None:
    """ "Costo" on every page of ours (the debate form said "costo", the inquiry form "coste")."""
    catalogue = Path(settings.BASE_DIR, "locale", "es", "LC_MESSAGES", "django.po")
    translations = [line for line in catalogue.read_text("utf-8").splitlines() if "coste" in line]
    assert [line for line in translations if re.search(r"\bcoste\b", line, re.I)] == []


def test_it_names_each_kind_of_objection_apart_from_the_rebuttal() -> None:
    """A rebut was "refutación", the Toulmin rebuttal's word, on the discussion's pages."""
    wrong = []
    for msgid, text in _catalogue():
        english = _PLACEHOLDER.sub(" ", msgid)
        for attack, spanish in ATTACKS.items():
            if re.search(attack, english, re.I) and not re.search(spanish, text, re.I):
                wrong.append(f"{msgid!r} -> {text!r}: wants {spanish}")
        # Each Spanish word only where the English names that kind (or the element).
        for word, reason in (
            (r"\brefut", r"\brebuttals?\b"),
            (r"\bcontrad(?:ec|ic)", r"\brebut|\bcontradict|\bconflict"),
            (r"\bsocav", r"\bundermin"),
            (r"\bcuestion\w* la inferencia|\bcort\w* (?:de )?la inferencia\b", r"\bundercut"),
        ):
            if re.search(word, text, re.I) and not re.search(reason, english, re.I):
                wrong.append(f"{msgid!r} -> {text!r}: {word} without {reason}")
    assert wrong == []
