"""Judgment a coach needs without a model: is this a real answer, or a way round one?

A student can satisfy word markers without arguing anything: a reason that
repeats what it gives a reason for ("Homework should be banned because it
should be banned."), grounds that say the claim again (with the claim's own
numbers in them), a step's text pasted from another step, a question or a
plain fact as the claim, "idk", a rebuttal that agrees with the claim. These
are the failures of *relevance and sufficiency* that informal logic names
first (Johnson & Blair, *Logical Self-Defense*, 1977: an argument's premises
must be relevant to, and more acceptable than, its conclusion; a premise that
restates the conclusion is begging the question, Walton, *Informal Logic*,
2nd ed., 2008, ch. 2). Each function here tells one of them from its form,
in English and Spanish alike (students mix them):

- `copies`: two texts are the same text, up to spacing, case, accents and a
  few changed words (`rapidfuzz`'s token-sort ratio, 90 or more);
- `adds_nothing`: every content word of a text (lemmatized, `coach.wording`)
  is already in another, or is an empty assertion ("true", "I think",
  "everyone knows", "es verdad"), and every number in it is the other's: a
  restatement, however reworded;
- `is_circular`: the reason after "because" / "porque" / "so" (or the "then"
  of an "if") says nothing the other half does not, or the text is one half
  said twice;
- `is_question`: a question, with or without its question mark;
- `takes_a_position`: the text says what should be, or what is better,
  worse, harmful, helpful ... (a normative or evaluative word, or a verb of
  effect): without one it is a fact or a definition nobody would dispute;
- `is_non_answer`: only "idk", "yes", "no", "nothing", "ni idea" and filler;
- `gives_a_reason`: a qualifier that gives a reason ("because ...") instead
  of a degree;
- `agrees`: a rebuttal that agrees with the claim or says there is no
  exception, instead of naming one.

They are word-level and lenient where a real answer could fail them: a
check that refuses a good sentence costs a student more than one that lets a
weak one through. `tests/coach/test_judgment_set.py` measures them on a
labelled set of students' answers.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import fuzz

from coach.text import contains_phrase, fold
from coach.wording import STOPWORDS, content_lemmas, tokens

__all__ = [
    "COPY_RATIO",
    "adds_nothing",
    "agrees",
    "copies",
    "gives_a_reason",
    "is_circular",
    "is_non_answer",
    "is_question",
    "new_content",
    "takes_a_position",
]

# Token-sort ratio (0-100) from which two texts are one text with a few words changed.
COPY_RATIO = 90
_PREFIX = 5


def _words(block: str) -> frozenset[str]:
    return frozenset(fold(word) for word in block.split())


# Words that assert without adding content: a text made of the other's words and these
# says the other again ("it is true that ...", "everyone knows ...", "creo que ...").
EMPTY_WORDS = _words(
    """
    true truth really real right correct fact facts obvious obviously clear clearly sure
    surely definitely everyone everybody know knows known think believe feel opinion agree
    say says said idea reason need needs must mean means totally honestly literally
    good bad better best worse worst important trust me percent per cent ciento
    verdad cierto cierta correcto correcta hecho obvio obvia claro clara seguro segura todo
    mundo todos saber sabe sabemos creo creer pensar pienso opinion decir dice razon
    necesitar tener hacer hacerlo realmente totalmente bueno buena malo mala mejor peor
    importante
    """
)

# Reasons that are no reason: "because it's true", "porque sí", "because I said so".
_EMPTY_REASON = _words(
    "true truth right correct fact obvious so say said verdad cierto correcto hecho obvio asi"
)

# Reason connectives, folded, longest first: what comes after one is given as a reason.
_BECAUSE = (
    "that s why", "which is why", "because", "cause", "cuz", "bc", "since", "so",
    "therefore", "thus", "hence", "porque", "pq", "xq", "ya que", "puesto que", "dado que",
    "asi que", "por eso", "por lo tanto", "entonces", "pues",
)  # fmt: skip
_IF = ("if", "when", "whenever", "si", "cuando")
_THEN = ("then", "entonces")

# A qualifier's reason: a connective that brings one in.
_REASON_MARKERS = (
    "because", "cause", "cuz", "bc", "since", "due to", "thanks to", "given that",
    "seeing that", "porque", "pq", "xq", "ya que", "puesto que", "dado que", "debido a",
    "gracias a", "por culpa de", "por que",
)  # fmt: skip

# "idk", "yes", "no" and their company: a message of only these (and function words)
# says nothing about the argument.
_NON_ANSWER = _words(
    """
    idk idc dunno dont don t know knw no nope nah not yes yeah yep yup ok okay k nothing none
    whatever idea clue care sure pass help sorry hmm hm um uh eh man bro lol lmao xd
    nose se sé nada ni idea igual da me vale porfa ayuda paso ninguna ninguno nadie verdad
    jaja jeje pff si sí
    """
)

# Openings of a question without its "?" (folded; "do not" and "can't" are not questions).
_QUESTION_OPENINGS = re.compile(
    r"^(?:should|shouldn|do|does|did|is|are|was|were|can|could|would|will|why|what|how|who|"
    r"whom|which|where|whats|hows|isn|aren|por que|porque|cual|cuales|cuanto|cuanta|cuantos|"
    r"cuantas|quien|quienes|donde|y si|que pasaria|que pasa|que harias|que opinas|"
    r"que piensas)(?: |$)"
)
_NOT_A_QUESTION = re.compile(r"^(?:do|does|can|should|is|are) (?:not|t|n t)(?: |$)")
_ACCENTED_QUESTION = re.compile(r"^\s*¿|^\s*(?:qué|cómo|cuál|cuándo|dónde|quién|cuánt)\b", re.I)

# What a position says: what should be, what is better or worse, what something does to
# something else. Folded; "word*" matches words that start with it.
STANCE_MARKERS = (
    # English: normative
    "should", "shouldn*", "shouldnt", "must", "mustn*", "ought", "need", "needs", "need to",
    "needs to",
    "have to", "has to", "had better", "deserve*", "allow*", "ban", "bans", "banned",
    "banning", "forbid*", "prohibit*", "require*", "mandatory", "compulsory", "abolish*",
    "replace*", "stop", "let", "legaliz*", "illegal",
    # English: evaluative and comparative
    "better", "best", "worse", "worst", "more", "less", "fewer", "too", "enough", "good",
    "bad", "great", "terrible", "awful", "horrible", "important", "necessary", "unnecessary",
    "useless", "useful", "pointless", "worth*", "waste*", "fair", "unfair", "wrong", "right",
    "dangerous", "safe", "safer", "unsafe", "healthy", "unhealthy", "harmful", "helpful",
    "beneficial", "addictive", "cruel", "stupid", "boring", "fun", "tasty", "delicious",
    "disgusting", "beautiful", "ugly", "violent", "toxic", "lazy", "overrated", "essential",
    "distraction*", "problem*", "benefit*", "mistake*", "pollut*",
    # English: effect
    "harm*", "help*", "hurt*", "improv*", "reduc*", "increas*", "decreas*", "caus*",
    "lead to", "leads to", "damag*", "destroy*", "ruin*", "distract*", "limit*", "prevent*",
    "protect*", "encourag*", "affect*", "worsen*", "boost*", "lower*", "raise*", "kill*",
    "save*", "weaken*", "strengthen*", "threaten*", "depend on", "addict*",
    # Spanish: normative
    "deberia*", "debe", "deben", "debemos", "tiene que", "tienen que", "hay que",
    "habria que", "tendria*", "prohib*", "permit*", "obligatori*", "necesari*", "merece*",
    "vale la pena", "abol*", "legaliz*", "ilegal", "fuera", "necesit*", "sirve", "sirven",
    # Spanish: evaluative and comparative
    "mejor*", "peor*", "mas", "menos", "demasiad*", "suficiente*", "bueno", "buena",
    "buenos", "buenas", "malo", "mala", "malos", "malas", "mal", "genial", "terrible*",
    "horrible*", "important*", "inutil*", "util*", "perdida", "injust*", "justo", "justa",
    "peligros*", "segur*", "sano", "sana", "insano*", "saludable*", "dañin*", "danin*",
    "adictiv*", "cruel*", "aburrid*", "estupid*", "divertid*", "rico", "rica", "asqueros*",
    "bonit*", "feo", "fea", "violent*", "toxic*", "esencial*", "problema*", "error*",
    "contamin*",
    # Spanish: effect
    "dan", "dana", "danan", "dano", "perjudic*", "benefic*", "ayud*", "empeor*", "reduc*",
    "aument*", "disminu*", "caus*", "provoc*", "distra*", "limit*", "impid*", "imped*",
    "proteg*", "fomenta*", "afecta*", "baja*", "sube*", "suben", "mata*", "salva*", "quita*",
)  # fmt: skip

# Words of a rebuttal that agrees instead of naming an exception.
_AGREEMENT = (
    "i agree", "we agree", "agree with", "no exception*", "without exception*",
    "never an exception", "always true", "always holds", "always right", "always works",
    "always better", "in every case", "in all cases", "every single case", "no case",
    "nobody could disagree", "nobody can disagree", "no one could disagree",
    "no one can disagree", "nobody would disagree", "never wrong", "my claim is right",
    "estoy de acuerdo", "de acuerdo con", "sin excepcion*", "no hay excepcion*",
    "ninguna excepcion", "siempre se cumple", "se cumple siempre", "en todos los casos",
    "ningun caso", "nadie puede estar en contra", "nadie podria estar en contra",
    "nadie puede", "nadie podria", "nunca falla", "siempre es mejor", "siempre tiene razon",
)  # fmt: skip
_EXCEPTION_WORDS = _words(
    """
    unless except excepting but only when not if a menos que salvo excepto a no ser que
    pero solo cuando
    """
)


def _has(folded: str, markers: tuple[str, ...]) -> bool:
    return any(contains_phrase(folded, marker) for marker in markers)


def _match(one: str, other: str) -> bool:
    if one == other:
        return True
    return len(one) >= _PREFIX and len(other) >= _PREFIX and one[:_PREFIX] == other[:_PREFIX]


@lru_cache(maxsize=4096)
def _content(text: str, language: str) -> frozenset[str]:
    return frozenset(lemma for lemma in content_lemmas(text, language) if lemma not in _MODALS)


# Modal and auxiliary forms a lemmatizer leaves as content ("deberían" -> "deber", which is
# also "deberes", homework): dropped by their written form before lemmatizing, see `_numbers`.
_MODALS = frozenset({"shouldnt", "cant", "wont", "dont", "doesnt", "isnt", "arent"})
_MODAL_FORMS = _words(
    """
    deberia deberian deberiamos debe deben debemos debo debes deberias deba deban debamos
    puede pueden podria podrian podemos puedo pueda puedan tiene tienen tengo habria hay
    """
)


def _numbers(text: str) -> frozenset[str]:
    """The numbers of a text, written without separators ("9,000" and "9000" are one)."""
    return frozenset(re.sub(r"[.,]", "", token) for token in tokens(text) if token[:1].isdigit())


def _without_modals(text: str) -> str:
    return " ".join(word for word in fold(text).split() if word not in _MODAL_FORMS)


def new_content(text: str, other: str, language: str = "en") -> frozenset[str]:
    """The content lemmas of `text` that `other` does not have and that are not empty
    assertions (`EMPTY_WORDS`)."""
    theirs = _content(_without_modals(other), language)
    return frozenset(
        lemma
        for lemma in _content(_without_modals(text), language)
        if lemma not in EMPTY_WORDS and not any(_match(lemma, o) for o in theirs)
    )


def copies(text: str, other: str) -> bool:
    """Whether `text` is `other` again, up to case, accents, spacing and a few words."""
    one, two = fold(text), fold(other)
    if not one or not two:
        return False
    return fuzz.token_sort_ratio(one, two) >= COPY_RATIO


def adds_nothing(text: str, other: str, language: str = "en") -> bool:
    """Whether `text` only says `other` again: it has content, all of it is `other`'s (or
    empty assertion), and so are its numbers."""
    if not other.strip() or not _content(_without_modals(text), language):
        return False
    if not _numbers(text) <= _numbers(other):
        return False
    return not new_content(text, other, language)


def _split_reason(folded: str) -> tuple[str, str] | None:
    """(what is claimed, what is given as its reason), or None when no reason is given."""
    words = folded.split()
    if words and words[0] in _IF:
        for at, word in enumerate(words[1:], start=1):
            if word in _THEN:
                return " ".join(words[at + 1 :]), " ".join(words[1:at])
    padded = f" {folded} "
    for connective in _BECAUSE:
        at = padded.find(f" {connective} ")
        if at > 0:
            return padded[:at].strip(), padded[at + len(connective) + 2 :].strip()
    return None


def _said_twice(lemmas: list[str]) -> bool:
    half = len(lemmas) // 2
    return len(lemmas) >= 2 and len(lemmas) % 2 == 0 and lemmas[:half] == lemmas[half:]


def _lemma_list(text: str, language: str) -> list[str]:
    content = _content(text, language)
    ordered: list[str] = []
    for token in tokens(_without_modals(text)):
        lemmas = _content(token, language)
        ordered.extend(lemma for lemma in lemmas if lemma in content)
    return ordered


def is_circular(text: str, language: str = "en") -> bool:
    """Whether the text's reason is the text itself ("X because X", "if X then X", "es así
    porque es así", "because it's true"), or one statement said twice."""
    folded = _without_modals(text)
    if _said_twice(_lemma_list(text, language)):
        return True
    parts = _split_reason(folded)
    if parts is None:
        return False
    claimed, reason = parts
    said = _content(claimed, language) - _EMPTY_REASON
    # "... because it is better to start later": praise of what is claimed is no reason.
    given = _content(reason, language) - _EMPTY_REASON - EMPTY_WORDS
    if not given:
        return True  # "because it should", "porque sí", "because it's true"
    return all(any(_match(lemma, other) for other in said) for lemma in given)


def is_question(text: str) -> bool:
    """A question, with or without its question mark ("should homework be banned",
    "¿Son malos los móviles?", "por que empieza tan pronto el instituto")."""
    stripped = text.strip()
    if not stripped:
        return False
    if stripped.rstrip(" .!").endswith("?") or _ACCENTED_QUESTION.search(stripped):
        return True
    folded = fold(stripped)
    return bool(_QUESTION_OPENINGS.match(folded)) and not _NOT_A_QUESTION.match(folded)


def takes_a_position(text: str) -> bool:
    """Whether the text says what should be, what is better or worse, or what something
    does: a claim without any of these is a fact or a definition (see STANCE_MARKERS)."""
    return _has(fold(text), STANCE_MARKERS)


def is_non_answer(text: str) -> bool:
    """Only "idk", "yes", "no", "nothing", "ni idea" ... and function words."""
    words = fold(text).split()
    return bool(words) and all(word in _NON_ANSWER or word in STOPWORDS for word in words)


def gives_a_reason(text: str) -> bool:
    """A qualifier that brings in a reason ("probably because ...") instead of a degree."""
    return _has(fold(text), _REASON_MARKERS)


def agrees(text: str, claim: str, language: str = "en") -> bool:
    """A rebuttal that agrees with the claim: it says so, says there is no exception, or
    its condition only repeats the claim ("unless homework should be banned")."""
    folded = fold(text)
    if _has(folded, _AGREEMENT):
        return True
    if not claim.strip():
        return False
    condition = " ".join(word for word in folded.split() if word not in _EXCEPTION_WORDS)
    return adds_nothing(condition, claim, language)
