"""What can be told about a student's words without a language model.

The offline coach cannot understand a sentence, but it can check what a
word list and a lemmatizer know, in English and Spanish alike (students mix
them, so every check accepts both):

- whether the words are words (`unknown_words`): "asdf qwerty zxcv" is not
  a claim. Dictionary look-ups use `simplemma` (its English and Spanish
  form -> lemma tables, read in its low-memory mode: about 13 MB and a
  second to load, once per process);
- whether a sentence has something verb-like (`has_verb`): an auxiliary,
  modal or copula from the short lists below, a common English verb, an
  English "-s"/"-ed" form of a known word, a Spanish word whose lemma is
  an infinitive ("mejoran" -> "mejorar") — never after an article, where it
  is a noun — or, in Spanish, a known word right after "no" / "nunca" past
  its clitics ("no sirven": stem-changing forms the lemma tables miss);
- which content words two texts share (`shared_content`): function words
  (the embedded stop lists below, a few hundred words that no library ships
  for both languages in a form we could use) are dropped, the rest are
  lemmatized ("cars" -> "car", "coches" -> "coche"), accents folded, and
  two lemmas of five letters or more that share their first five match
  ("pollution" / "polluted");
- whether a claim is a fact nobody disputes, where that shows in its form
  (`is_truism`): arithmetic ("2 + 2 = 4") or "X is X";
- whether two English texts are about the same thing though they share no
  word ("grades" / "test scores": `related_in_meaning`), by the cosine of
  their sentence embeddings, when the optional embedding model the
  tournaments use is installed (tournaments.semantic: all-MiniLM-L6-v2,
  Reimers & Gurevych, EMNLP 2019). It is an extra reason to *accept* a
  link, never to refuse one, and only for English: the model was trained on
  English, and on Spanish pairs it scores unrelated sentences as high as
  related ones (measured on tests/coach/judgment_set.py: 0.3 to 0.55 for
  Spanish off-topic text, 0.19 at most for English). Without the model the
  checks are the word checks alone.

Everything here is lenient by design: a check that refuses a real sentence
costs a student more than one that lets a weak one through, and the student
can always keep their text.
"""

from __future__ import annotations

import re
from functools import lru_cache

import simplemma

from coach.text import fold

__all__ = [
    "content_lemmas",
    "has_verb",
    "is_truism",
    "related_in_meaning",
    "looks_like_gibberish",
    "shared_content",
    "tokens",
    "unknown_words",
]

_LANGS = ("en", "es")
# Letters (with inner apostrophes or hyphens), or numbers.
_TOKEN = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*|\d+(?:[.,]\d+)*", re.UNICODE)
_VOWEL = re.compile(r"[aeiouyáéíóúü]", re.IGNORECASE)


def _word_set(block: str) -> frozenset[str]:
    """The folded words of a whitespace-separated block (lists read better as prose)."""
    return frozenset(fold(word) for word in block.split())


STOPWORDS = _word_set(
    """
    a an the this that these those it its it's i me my mine we us our you your yours he him his
    she her hers they them their theirs one ones some any no not nor all each every both either
    and or but if then than so because as of to in on at by for with without from into onto
    about over under after before between through during up down out off again further once
    here there when where why how what which who whom whose is are was were be been being am
    do does did doing have has had having will would shall should can could may might must
    very too also just only even more most less least much many such own same other another
    lol haha ok okay yes yeah really like get got thing things stuff lot lots
    el la los las un una unos unas lo al del de a en por para con sin sobre entre hasta desde
    y e o u ni pero sino que si no ya este esta estos estas ese esa esos esas aquel aquella
    mi mis tu tus su sus nuestro nuestra nuestros nuestras yo me te se nos le les ellos ellas
    él ella usted ustedes es son era eran fue fueron ser sido está están estar estaba hay
    ha han he hemos haber muy más menos mucho muchos mucha muchas poco todo toda todos todas
    otro otra otros otras mismo misma como cuando donde porque también solo sólo tan cada
    jaja vale bueno pues cosa cosas
    deberia deberian deberiamos deberias debe deben debemos debes debo deba deban debamos
    puede pueden podria podrian podemos puedo pueda puedan
    """
)

# What comes right after these in Spanish, past clitic pronouns, is a verb ("no sirven",
# "nunca lo hacen"; Real Academia Española, *Nueva gramática*, 2009, §48.1: "no" precedes
# the verb and its unstressed pronouns).
_SPANISH_NEGATIONS = frozenset({"no", "nunca", "jamas", "tampoco"})
_CLITICS = frozenset({"me", "te", "se", "lo", "la", "le", "los", "las", "les", "nos", "os"})


# A determiner before a word makes it a noun ("the cars", "los lugares"), not a verb.
_DETERMINERS = _word_set(
    """
    a an the this that these those my your his her its our their some many few every each no
    el la los las un una unos unas este esta estos estas ese esa esos esas mi mis tu tus su sus
    nuestro nuestra nuestros nuestras cada algunos algunas muchos muchas pocos pocas
    """
)

_AUXILIARIES = _word_set(
    """
    is are was were be been am isn aren wasn weren do does did don doesn didn has have had
    hasn haven hadn will would shall should can could may might must ought won wouldn
    shouldn cannot couldn mustn needs need needed
    es son era eran fue fueron será serán sería serían sea sean está están estaba estaban
    estará estarían hay había habrá habría ha han he hemos había habían debe deben debería
    deberían deberíamos debemos puede pueden podría podrían podemos tiene tienen tenía tendría
    tendrían hace hacen va van necesita necesitan conviene hizo hicieron
    """
)

# Common English verbs whose base form carries no ending to recognise them by
# ("students learn", "cities need"): lemmas, compared after lemmatizing.
_COMMON_VERBS_EN = _word_set(
    """
    accept achieve add affect agree allow appear apply argue ask avoid become begin believe
    benefit build buy call cause change choose come consider contain continue cost create
    cut damage decide decrease depend deserve destroy develop die distract drive eat enable
    encourage end enjoy ensure exist expect explain fail fall feel find fix follow force get
    give go grow harm happen hate help hold hurt improve include increase keep kill know lack
    last lead learn leave let like limit live look lose love lower make matter mean meet move
    need offer open outweigh own pay play prefer prepare prevent produce protect provide put
    raise reach read reduce remain remove replace require rise risk run save say see seem
    sell send serve show sleep solve spend stand start stay stop suffer support take talk
    taste teach tell tend think threaten travel try turn understand use value waste want
    watch win work worsen write
    """
)

_NUMBER = (
    r"(?:\d+(?:[.,]\d+)?|zero|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"cero|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez)"
)
_OPERATOR = r"(?:[-+*/x×÷]|plus|minus|times|mas|menos|por)"
_RESULT = r"(?:=|is|equals|makes|es|son|igual a|da)"
_ARITHMETIC = re.compile(
    rf"^\s*{_NUMBER}\s*{_OPERATOR}\s*{_NUMBER}\s*{_RESULT}\s*{_NUMBER}\s*[.!]?\s*$",
    re.IGNORECASE,
)
_COPULAS = ("is", "are", "es", "son")
_PREFIX = 5


def tokens(text: str) -> list[str]:
    """Words and numbers, as written (case kept: capitals mark names)."""
    return _TOKEN.findall(text)


@lru_cache(maxsize=16384)
def _known(word: str) -> bool:
    return simplemma.is_known(word, lang=_LANGS, low_memory=True)


@lru_cache(maxsize=16384)
def _english_lemma(word: str) -> str | None:
    """The lemma in the English dictionary alone, or None for a word English does not know."""
    if not simplemma.is_known(word, lang="en", low_memory=True):
        return None
    return fold(simplemma.lemmatize(word, lang="en", low_memory=True))


@lru_cache(maxsize=16384)
def _lemma(word: str, language: str) -> str:
    langs = (language, *(other for other in _LANGS if other != language))
    return fold(simplemma.lemmatize(word, lang=langs, low_memory=True))


def _is_name(token: str) -> bool:
    """A capitalised word or an acronym: names and sources are not in any dictionary."""
    return token[:1].isupper()


def unknown_words(text: str) -> list[str]:
    """The words of `text` that are in neither dictionary (names and numbers aside)."""
    unknown: list[str] = []
    for token in tokens(text):
        if token[0].isdigit() or _is_name(token):
            continue
        word = token.lower()
        if len(word) == 1:
            continue
        if not _VOWEL.search(word) or not (_known(word) or _known(fold(word))):
            unknown.append(token)
    return unknown


def _word_count(text: str) -> int:
    return sum(1 for token in tokens(text) if not token[0].isdigit())


def looks_like_gibberish(text: str) -> bool:
    """Most words unknown: two or more unknown and over a third of them, or all of them."""
    unknown = len(unknown_words(text))
    total = _word_count(text)
    if unknown == 0:
        return False
    return unknown == total or (unknown >= 2 and unknown * 3 > total)


def has_verb(text: str, language: str = "en") -> bool:
    """Whether something in `text` looks like a finite verb (see the module docstring)."""
    previous = ""
    words = tokens(text)
    last = len(words) - 1
    for index, token in enumerate(words):
        word = fold(token)
        if not word or word[0].isdigit():
            previous = word
            continue
        after_negation = language == "es" and previous in _SPANISH_NEGATIONS
        after_determiner = previous in _DETERMINERS and not after_negation
        previous = word if not (after_negation and word in _CLITICS) else previous
        negated = after_negation and word not in _CLITICS and word not in STOPWORDS
        if negated and _known(token.lower()):
            # Spanish puts only a verb (after its clitics) right after "no" / "nunca":
            # "no sirven", "no se duerme", stem-changing forms the lemma tables miss.
            return True
        if word in _AUXILIARIES or word.endswith("n t"):
            return True
        if after_determiner:
            continue
        # Dictionaries want the word as written (accents, "ñ"); comparisons use folded forms.
        lower = token.lower()
        if _lemma(lower, "en") in _COMMON_VERBS_EN and index > 0:
            return True
        english = _english_lemma(lower)
        if (
            0 < index < last
            and word.endswith(("s", "ed"))
            and english is not None
            and english != word
            and word not in STOPWORDS
        ):
            return True
        if _spanish_verb_form(lower):
            return True
    return False


def _spanish_verb_form(word: str) -> bool:
    """A conjugated Spanish verb: its lemma is an infinitive ("mejoran" -> "mejorar"),
    or it is a present form of a known infinitive ("mejora", lemmatized as the noun).
    A plural of a noun in -ar/-er ("escolares", "lugares") is not."""
    folded, lemma = fold(word), _lemma(word, "es")
    if lemma != folded and lemma.endswith(("ar", "er", "ir")) and len(lemma) > 3:
        return folded not in (lemma + "s", lemma + "es")
    stems = {"a": ("ar",), "an": ("ar",), "e": ("er", "ir"), "en": ("er", "ir")}
    for ending, infinitives in stems.items():
        if word.endswith(ending) and len(word) > len(ending) + 3:
            stem = word[: -len(ending)]
            if any(_known(stem + infinitive) for infinitive in infinitives):
                return True
    return False


def content_lemmas(text: str, language: str = "en") -> frozenset[str]:
    """The lemmas of the words that carry content (function words and numbers dropped)."""
    lemmas = set()
    for token in tokens(text):
        word = fold(token)
        if not word or word[0].isdigit() or word in STOPWORDS or len(word) < 3:
            continue
        lemma = _lemma(token.lower(), language)
        if lemma and lemma not in STOPWORDS:
            lemmas.add(lemma)
    return frozenset(lemmas)


def _match(one: str, other: str) -> bool:
    if one == other:
        return True
    return len(one) >= _PREFIX and len(other) >= _PREFIX and one[:_PREFIX] == other[:_PREFIX]


def shared_content(text: str, other: str, language: str = "en") -> frozenset[str]:
    """Lemmas of `text` that match a content word of `other` (empty: no shared content)."""
    theirs = content_lemmas(other, language)
    return frozenset(
        lemma for lemma in content_lemmas(text, language) if any(_match(lemma, o) for o in theirs)
    )


# Cosine from which two English sentences are about the same thing (all-MiniLM-L6-v2): on
# the labelled set, English text unrelated to the argument scores 0.19 at most, and good
# answers that share no word with what they relate to 0.3 and more.
RELATED_COSINE = 0.3


def _cosine(text: str, other: str) -> float | None:
    """The embeddings' cosine, or None when the optional model is not installed."""
    from tournaments import semantic
    from tournaments.convergence import SemanticUnavailable

    if not semantic.is_installed():
        return None
    try:
        return semantic.cosine(text, other)
    except SemanticUnavailable:
        return None


def related_in_meaning(text: str, other: str, language: str = "en") -> bool:
    """Whether the sentence embeddings say two English texts are about the same thing
    (False without the optional model, or in another language: see the module docstring)."""
    if language != "en" or not text.strip() or not other.strip():
        return False
    similarity = _cosine(text, other)
    return similarity is not None and similarity >= RELATED_COSINE


def is_truism(text: str) -> bool:
    """A statement nobody disputes, where its form shows it: sums, and "X is X"."""
    if _ARITHMETIC.match(text) or _ARITHMETIC.match(fold(text)):
        return True
    words = fold(text).split()
    for copula in _COPULAS:
        if copula in words:
            at = words.index(copula)
            left = [w for w in words[:at] if w not in _DETERMINERS]
            right = [w for w in words[at + 1 :] if w not in _DETERMINERS]
            if left and left == right:
                return True
    return False
