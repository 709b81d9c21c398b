"""The inquiry's hard gates on an agent's output: No-Free-Facts and Muḥāsabah.

Both are deterministic and pure. They return violations rather than raising, so a
caller can send every message back to the model at once (as trials do with
`argumentation.toulmin_rules`). Rule codes (`GateCode`) are stable: store them,
branch on them; messages are plain English for the models, each a template of
``MESSAGES`` that a page reads back (``read_back``) and says in the reader's
language.

No-Free-Facts (conservative: it prefers a false positive to a free fact)
-----------------------------------------------------------------------
The text is split into sentences (at . ! ? … followed by a space, and at line
breaks; common abbreviations such as "Dr." or "e.g." do not end a sentence, and a
citation standing alone after a full stop belongs to the sentence before). A
sentence *states a fact* when, after its citations are removed, it contains any of:

==========  ====================================================================
kind        what triggers it
==========  ====================================================================
money       a currency sign next to a number (€ $ £ ¥), or a number with a
            currency word or code (EUR, USD, euros, dollars, dólares, pesos…)
percentage  a number with %, "percent", "per cent", "por ciento", "porcentaje"
date        an English month name (capitalised), a Spanish month name, a numeric
            date (12/03/2024, 2024-03-12), a year after "in/en/since/desde/de", or "yesterday/ayer", "last year/el año
            pasado" and the like
number      any digit, or a number word from two to twenty, a tens word, or a
            multiplier (hundred, thousand, million, billion, dozen; cien, mil,
            millón, millones, billón, docena…), in English or Spanish. "one",
            "uno/una" are left out: they are mostly pronouns and articles.
entity      a word that starts with a capital letter and is not the sentence's
            first word (nor "I"), or an acronym of two or more capitals anywhere
==========  ====================================================================

It is a violation unless the sentence cites at least one *registered* claim or calc
id in square brackets: ``[C-12]``, ``[K-3]``, ``[C-12, K-3]``. A sentence citing only
ids that are not registered is a violation too.

Muḥāsabah (the self-accounting record every agent output carries)
-----------------------------------------------------------------
======================  =======================================================
code                    rejected when
======================  =======================================================
NO_RECORD               the output has no record
OVERCONFIDENT           confidence > 0.80 and no (non-blank) uncertainty
UNFALSIFIABLE           confidence > 0.50 and no (non-blank) falsifiability test
UNSUPPORTED_FACTS       supported_claim_ids is empty while the content states a
                        fact (by the No-Free-Facts detectors above)
UNREGISTERED_CITATION   an id in supported_claim_ids, in the content's
                        citations, or in the output's claim_refs is not
                        registered
======================  =======================================================

The boundaries are strict: a confidence of exactly 0.80 needs no uncertainty and
exactly 0.50 needs no falsifiability test.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


def gettext_noop(message: str) -> str:
    """Mark a message for the catalogue (makemessages reads this name) without Django:
    the gates stay pure, and the pages translate the same English at display."""
    return message


__all__ = [
    "CITATION_RE",
    "FactKind",
    "MESSAGES",
    "FreeFactViolation",
    "GateCode",
    "GateViolation",
    "MuhasabahRecord",
    "cited_ids",
    "fact_kinds",
    "has_facts",
    "muhasabah_violations",
    "gate_message",
    "no_free_facts",
    "read_back",
    "split_sentences",
]


class GateCode(StrEnum):
    NO_FREE_FACTS = "NO_FREE_FACTS"
    NO_RECORD = "NO_RECORD"
    OVERCONFIDENT = "OVERCONFIDENT"
    UNFALSIFIABLE = "UNFALSIFIABLE"
    UNSUPPORTED_FACTS = "UNSUPPORTED_FACTS"
    UNREGISTERED_CITATION = "UNREGISTERED_CITATION"


class FactKind(StrEnum):
    MONEY = "money"
    PERCENTAGE = "percentage"
    DATE = "date"
    NUMBER = "number"
    ENTITY = "entity"


@dataclass(frozen=True)
class GateViolation:
    code: GateCode
    message: str


@dataclass(frozen=True)
class FreeFactViolation:
    sentence: str
    kinds: tuple[FactKind, ...]
    evidence: str
    """The first piece of text that made the sentence factual, for the message."""
    message: str
    code: GateCode = GateCode.NO_FREE_FACTS


class MuhasabahRecord(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    agent_id: str
    output_id: str
    supported_claim_ids: list[str] = Field(default_factory=list)
    falsifiability_tests: list[str] = Field(default_factory=list)
    uncertainties: list[str] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)
    failure_modes: list[str] = Field(default_factory=list)
    timestamp: datetime


# --- citations ---------------------------------------------------------------------

_ID = r"[CK]-[0-9A-Za-z]+"
CITATION_RE = re.compile(rf"\[\s*{_ID}(?:\s*[,;]\s*{_ID})*\s*\]")
_ID_RE = re.compile(_ID)


def cited_ids(text: str) -> list[str]:
    """Every claim or calc id cited in square brackets, in order of appearance."""
    return [i for m in CITATION_RE.finditer(text) for i in _ID_RE.findall(m.group())]


# --- sentences ---------------------------------------------------------------------

_ABBREVIATIONS = frozenset(
    [
        "dr",
        "dra",
        "mr",
        "mrs",
        "ms",
        "sr",
        "sra",
        "srta",
        "st",
        "prof",
        "gen",
        "no",
        "nº",
        "vs",
        "etc",
        "approx",
        "fig",
        "figs",
        "pp",
        "p",
        "vol",
        "ed",
        "eds",
        "inc",
        "ltd",
        "co",
        "corp",
        "jr",
        "e.g",
        "i.e",
        "cf",
        "ca",
        "aprox",
        "pág",
        "págs",
        "núm",
        "ej",
    ]
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’»)\]]*\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, stripped; an abbreviation's full stop does not end one."""
    pieces: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        candidate = text[start : m.start()]
        if "\n" not in m.group():
            last = candidate.rstrip(".").rsplit(None, 1)[-1:] or [""]
            if last[0].lower().lstrip("(") in _ABBREVIATIONS and candidate.endswith("."):
                continue
        pieces.append(candidate)
        start = m.end()
    pieces.append(text[start:])
    sentences: list[str] = []
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        # "Sales fell 12%. [C-1]": a citation standing alone belongs to the sentence before.
        if sentences and not CITATION_RE.sub("", piece).strip(" .;,"):
            sentences[-1] = f"{sentences[-1]} {piece}"
        else:
            sentences.append(piece)
    return sentences


# --- fact detectors ----------------------------------------------------------------

_NUM = r"\d+(?:[.,\s]\d{3})*(?:[.,]\d+)?"
_CURRENCY_WORDS = (
    r"EUR|USD|GBP|MXN|ARS|COP|CLP|euros?|dollars?|d[oó]lares|pounds?|libras?|pesos?|yen"
)
_MONEY = re.compile(
    rf"[€$£¥]\s?{_NUM}|{_NUM}\s?[€$£¥]|{_NUM}\s*(?:(?:million|billion|thousand|mil(?:lones)?|"
    rf"mill[oó]n|millones de|billones?(?: de)?)\s+)?(?:{_CURRENCY_WORDS})\b|"
    rf"\b(?:{_CURRENCY_WORDS})\s?{_NUM}",
    re.IGNORECASE,
)
_PERCENT = re.compile(
    rf"{_NUM}\s?%|%\s?{_NUM}|\b(?:percent|per\s+cent|por\s+ciento|porcentaje|percentage)\b",
    re.IGNORECASE,
)
_EN_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_ES_MONTHS = "enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre"
_DATE = re.compile(
    rf"\b(?:{_EN_MONTHS})\b\.?|(?i:\b(?:{_ES_MONTHS})\b)|\b\d{{1,4}}[/.-]\d{{1,2}}[/.-]\d{{1,4}}\b|"
    r"(?i:\b(?:in|en|since|desde|de|del|year|año)\s+(?:1[5-9]|20)\d\d\b)|"
    r"(?i:\b(?:yesterday|last\s+(?:year|month|week|decade|century)|"
    r"next\s+(?:year|month|week)|ayer|anteayer|(?:el|la)\s+(?:año|mes|semana|década)\s+"
    r"(?:pasad[oa]|próxim[oa]|que\s+viene)|el\s+próximo\s+(?:año|mes))\b)"
)
_NUMBER_WORDS = (
    "two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    "sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
    "ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|"
    "dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|"
    "dieciséis|dieciseis|diecisiete|dieciocho|diecinueve|veinte|treinta|cuarenta|cincuenta|"
    "sesenta|setenta|ochenta|noventa|cien|ciento|cientos|doscientos|trescientos|quinientos|"
    "mil|miles|millón|millon|millones|billón|billones|docenas?"
)
_NUMBER = re.compile(rf"\d|(?i:\b(?:{_NUMBER_WORDS})\b)")
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_NOT_ENTITIES = frozenset({"I", "I'm", "I've", "I'd", "I'll", "I’m", "I’ve", "I’d", "I’ll"})


def _entity(sentence: str) -> str | None:
    words = _WORD.findall(sentence)
    for position, word in enumerate(words):
        letters = [c for c in word if c.isalpha()]
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            return word  # an acronym, even as the first word
        if position > 0 and word[0].isupper() and word not in _NOT_ENTITIES:
            return word
    return None


def _detect(sentence: str) -> list[tuple[FactKind, str]]:
    """Every fact kind the sentence shows, with the first text that shows it."""
    found: list[tuple[FactKind, str]] = []
    for kind, pattern in (
        (FactKind.MONEY, _MONEY),
        (FactKind.PERCENTAGE, _PERCENT),
        (FactKind.DATE, _DATE),
        (FactKind.NUMBER, _NUMBER),
    ):
        m = pattern.search(sentence)
        if m:
            found.append((kind, m.group().strip()))
    entity = _entity(sentence)
    if entity:
        found.append((FactKind.ENTITY, entity))
    return found


def fact_kinds(sentence: str) -> tuple[FactKind, ...]:
    """The kinds of fact a sentence states, citations ignored."""
    return tuple(kind for kind, _ in _detect(CITATION_RE.sub(" ", sentence)))


def has_facts(text: str) -> bool:
    return any(fact_kinds(s) for s in split_sentences(text))


_KIND_WORDS = {
    FactKind.MONEY: gettext_noop("an amount of money"),
    FactKind.PERCENTAGE: gettext_noop("a percentage"),
    FactKind.DATE: gettext_noop("a date"),
    FactKind.NUMBER: gettext_noop("a number"),
    FactKind.ENTITY: gettext_noop("a name"),
}

#: Each message by its key (a rule code, or a variant of one), with its parameters
#: as %(name)s. The model is sent the English; a page reads the stored sentence back
#: into its key and parameters (:func:`read_back`) and says it in the reader's
#: language, so the rows keep what the model was told, word for word.
MESSAGES: dict[str, str] = {
    GateCode.NO_FREE_FACTS.value: gettext_noop(
        'The sentence "%(sentence)s" states %(kind)s ("%(evidence)s") but it cites no '
        "registered claim or calculation. Register a claim with evidence from the case file "
        "and cite it like [C-12] (or a calculation like [K-3]), or remove the fact."
    ),
    "NO_FREE_FACTS_UNREGISTERED": gettext_noop(
        'The sentence "%(sentence)s" states %(kind)s ("%(evidence)s") but none of the ids it '
        "cites (%(ids)s) is registered. Register a claim with evidence from the case file "
        "and cite it like [C-12] (or a calculation like [K-3]), or remove the fact."
    ),
    GateCode.NO_RECORD.value: gettext_noop(
        "Your answer has no self-accounting record. Add one with the claims you rely on, how "
        "your position could be shown wrong, your uncertainties and your confidence."
    ),
    GateCode.OVERCONFIDENT.value: gettext_noop(
        "Your confidence is %(confidence)s but you list no uncertainty. Above 0.80 name at "
        "least one thing you are unsure of, or lower your confidence."
    ),
    GateCode.UNFALSIFIABLE.value: gettext_noop(
        "Your confidence is %(confidence)s but you give no falsifiability test. Above 0.50 "
        "say what evidence would show you wrong, or lower your confidence."
    ),
    GateCode.UNSUPPORTED_FACTS.value: gettext_noop(
        "Your answer states facts but your record lists no supported claim ids. List the "
        "registered claims (C-…) your answer relies on."
    ),
    GateCode.UNREGISTERED_CITATION.value: gettext_noop(
        "You cite %(ids)s, and none of them is registered yet. Register each claim with "
        "evidence from the case file before citing it, or cite only registered ids."
    ),
}
_PLACEHOLDER = re.compile(r"%\\\((\w+)\\\)s")


def gate_message(key: str, **params: str) -> str:
    """The English message ``key`` with its parameters: what the model is sent."""
    return MESSAGES[key] % params


def _pattern(message: str) -> re.Pattern[str]:
    return re.compile(_PLACEHOLDER.sub(r"(?P<\1>.+?)", re.escape(message)), re.DOTALL)


_PATTERNS = {key: _pattern(message) for key, message in MESSAGES.items()}


def read_back(rule: str, detail: str) -> tuple[str, dict[str, str]] | None:
    """A stored message as its key and parameters, or None if it is none of ours.

    ``kind`` comes back as its English words (a key of the catalogue), which the
    page translates like the sentence around it.
    """
    keys = [k for k in MESSAGES if k == rule or k.startswith(f"{rule}_")]
    for key in keys:
        if match := _PATTERNS[key].fullmatch(detail or ""):
            return key, match.groupdict()
    return None


def no_free_facts(text: str, *, registered_ids: Collection[str]) -> list[FreeFactViolation]:
    """Sentences that state a fact without citing a registered claim or calc id."""
    registered = set(registered_ids)
    violations: list[FreeFactViolation] = []
    for sentence in split_sentences(text):
        detected = _detect(CITATION_RE.sub(" ", sentence))
        if not detected:
            continue
        ids = cited_ids(sentence)
        if any(i in registered for i in ids):
            continue
        kind, evidence = detected[0]
        key = "NO_FREE_FACTS_UNREGISTERED" if ids else GateCode.NO_FREE_FACTS.value
        message = gate_message(
            key,
            sentence=sentence,
            kind=_KIND_WORDS[kind],
            evidence=evidence,
            ids=", ".join(ids),
        )
        violations.append(
            FreeFactViolation(
                sentence=sentence,
                kinds=tuple(k for k, _ in detected),
                evidence=evidence,
                message=message,
            )
        )
    return violations


# --- Muḥāsabah ---------------------------------------------------------------------


def _filled(items: Iterable[str]) -> list[str]:
    return [i for i in items if i.strip()]


def muhasabah_violations(
    record: MuhasabahRecord | None,
    *,
    content: str,
    registered_ids: Collection[str],
    claim_refs: Iterable[str] = (),
) -> list[GateViolation]:
    """Every Muḥāsabah rule the output breaks, in the order of the module's table."""
    if record is None:
        return [GateViolation(GateCode.NO_RECORD, gate_message(GateCode.NO_RECORD.value))]
    out: list[GateViolation] = []
    confidence = record.confidence
    if confidence > 0.80 and not _filled(record.uncertainties):
        out.append(
            GateViolation(
                GateCode.OVERCONFIDENT,
                gate_message(GateCode.OVERCONFIDENT.value, confidence=f"{confidence:.2f}"),
            )
        )
    if confidence > 0.50 and not _filled(record.falsifiability_tests):
        out.append(
            GateViolation(
                GateCode.UNFALSIFIABLE,
                gate_message(GateCode.UNFALSIFIABLE.value, confidence=f"{confidence:.2f}"),
            )
        )
    if not record.supported_claim_ids and has_facts(content):
        out.append(
            GateViolation(
                GateCode.UNSUPPORTED_FACTS, gate_message(GateCode.UNSUPPORTED_FACTS.value)
            )
        )
    registered = set(registered_ids)
    unknown: list[str] = []
    for i in [*record.supported_claim_ids, *cited_ids(content), *claim_refs]:
        if i not in registered and i not in unknown:
            unknown.append(i)
    if unknown:
        out.append(
            GateViolation(
                GateCode.UNREGISTERED_CITATION,
                gate_message(GateCode.UNREGISTERED_CITATION.value, ids=", ".join(unknown)),
            )
        )
    return out
