"""No-Free-Facts and Muḥāsabah, in English and Spanish, at their boundaries."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from inquiries.gates import (
    FactKind,
    GateCode,
    MuhasabahRecord,
    cited_ids,
    fact_kinds,
    has_facts,
    muhasabah_violations,
    no_free_facts,
    split_sentences,
)

REGISTERED = {"C-1", "C-12", "K-3"}


def kinds(sentence: str) -> set[FactKind]:
    return set(fact_kinds(sentence))


# --- No-Free-Facts: detectors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("Unemployment fell by 12% over the period.", FactKind.PERCENTAGE),
        ("Unemployment fell by 12 percent.", FactKind.PERCENTAGE),
        ("El paro bajó un 12 %.", FactKind.PERCENTAGE),
        ("El paro bajó un doce por ciento.", FactKind.PERCENTAGE),
        ("The program cost $4.5 million.", FactKind.MONEY),
        ("The program cost 300 euros.", FactKind.MONEY),
        ("El programa costó 1.200 €.", FactKind.MONEY),
        ("El programa costó 40 dólares.", FactKind.MONEY),
        ("It cost USD 40 in the end.", FactKind.MONEY),
        ("The law passed in March.", FactKind.DATE),
        ("La ley se aprobó en marzo.", FactKind.DATE),
        ("La ley se aprobó el 5 de mayo.", FactKind.DATE),
        ("The law passed on 12/03/2024.", FactKind.DATE),
        ("The law passed on 2024-03-12.", FactKind.DATE),
        ("The law passed in 1999.", FactKind.DATE),
        ("La ley se aprobó el año pasado.", FactKind.DATE),
        ("It changed last year.", FactKind.DATE),
        ("The survey asked 400 people.", FactKind.NUMBER),
        ("The survey asked three hundred people.", FactKind.NUMBER),
        ("La encuesta preguntó a tres mil personas.", FactKind.NUMBER),
        ("The survey was run by Gallup.", FactKind.ENTITY),
        ("La encuesta la hizo Ipsos.", FactKind.ENTITY),
        ("The WHO disagrees.", FactKind.ENTITY),
        ("OMS no está de acuerdo.", FactKind.ENTITY),
        ("According to Ángel, it works.", FactKind.ENTITY),
    ],
)
def test_it_detects_each_kind_of_fact(sentence: str, kind: FactKind) -> None:
    assert kind in kinds(sentence)
    (violation,) = no_free_facts(sentence, registered_ids=REGISTERED)
    assert violation.sentence == sentence
    assert kind in violation.kinds
    assert violation.code is GateCode.NO_FREE_FACTS


@pytest.mark.parametrize(
    "sentence",
    [
        "This argument rests on a weak assumption.",
        "I think the premise is doubtful.",
        "Este argumento descansa en una suposición débil.",
        "¿Por qué lo crees así?",
        "One could argue otherwise.",
        "The first point is stronger than the last.",
    ],
)
def test_it_lets_sentences_without_facts_pass(sentence: str) -> None:
    assert kinds(sentence) == set()
    assert no_free_facts(sentence, registered_ids=REGISTERED) == []


@pytest.mark.parametrize(
    "sentence",
    [
        "Unemployment fell by 12% [C-12].",
        "El programa costó 1.200 € [K-3].",
        "Gallup ran it in March [C-1, C-99].",
        "Gallup ran it in March [C-99; K-3].",
    ],
)
def test_it_accepts_a_fact_that_cites_a_registered_id(sentence: str) -> None:
    assert no_free_facts(sentence, registered_ids=REGISTERED) == []


def test_it_rejects_a_fact_that_cites_only_unregistered_ids() -> None:
    (violation,) = no_free_facts("Unemployment fell by 12% [C-99].", registered_ids=REGISTERED)
    assert "C-99" in violation.message
    assert "none of the ids it cites (C-99) is registered" in violation.message


def test_its_message_names_the_sentence_the_fact_and_the_way_out() -> None:
    (violation,) = no_free_facts("We agree. It cost $40.", registered_ids=REGISTERED)
    assert violation.sentence == "It cost $40."
    assert violation.evidence == "$40"
    assert "amount of money" in violation.message
    assert "[C-12]" in violation.message


def test_a_citation_id_is_not_itself_a_fact() -> None:
    assert kinds("This holds [C-12].") == set()
    assert kinds("This holds [K-3].") == set()


def test_it_checks_each_sentence_on_its_own() -> None:
    text = "Sales fell 10% [C-1]. They fell again in 2021. Nothing else changed!\nBy 5 points."
    violations = no_free_facts(text, registered_ids=REGISTERED)
    assert [v.sentence for v in violations] == ["They fell again in 2021.", "By 5 points."]


def test_it_does_not_end_a_sentence_at_an_abbreviation() -> None:
    assert split_sentences("Dr. Smith agrees, e.g. on costs. Then it ends.") == [
        "Dr. Smith agrees, e.g. on costs.",
        "Then it ends.",
    ]
    # So "Smith" is a name in mid-sentence, not a sentence's first word.
    assert no_free_facts("Dr. Smith agrees.", registered_ids=REGISTERED)


def test_a_citation_after_the_full_stop_belongs_to_the_sentence_before() -> None:
    text = "Sales fell 12%. [C-1]\nPrices rose 3%. [C-12, K-3].  We agree."
    assert split_sentences(text) == [
        "Sales fell 12%. [C-1]",
        "Prices rose 3%. [C-12, K-3].",
        "We agree.",
    ]
    assert no_free_facts(text, registered_ids=REGISTERED) == []


def test_it_reads_cited_ids_only_inside_brackets() -> None:
    assert cited_ids("See C-4 and [C-1, K-3] and [C-12]; [X-1].") == ["C-1", "K-3", "C-12"]


def test_has_facts_is_true_when_any_sentence_states_one() -> None:
    assert has_facts("We agree. The survey by Ipsos says so.")
    assert not has_facts("We agree. It is a fair point.")


# --- No-Free-Facts: properties ---------------------------------------------------------

# Lower-case letters, spaces and punctuation that cannot form a number, a date, a
# currency or a name; English and Spanish.
PLAIN_ALPHABET = "abcdefghijklmnopqrstuvwxyzáéíóúñü ,;:.!?¿¡'()-"
# Words the detectors treat as numbers or dates even in lower case.
_LOWER_TRIGGERS = re.compile(
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundreds?|thousands?|millions?|billions?|trillions?|dozens?|dos|tres|"
    r"cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|trece|catorce|quince|dieciséis|"
    r"dieciseis|diecisiete|dieciocho|diecinueve|veinte|treinta|cuarenta|cincuenta|sesenta|"
    r"setenta|ochenta|noventa|cien|ciento|cientos|doscientos|trescientos|quinientos|mil|miles|"
    r"millón|millon|millones|billón|billones|docenas?|enero|febrero|marzo|abril|mayo|junio|"
    r"julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|yesterday|ayer|anteayer|"
    r"last|next|pasad[oa]|próxim[oa]|percent|cent|ciento|porcentaje|percentage|euros?|"
    r"dollars?|dólares|pounds?|libras?|pesos?|yen)\b"
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=PLAIN_ALPHABET, max_size=200))
def test_text_without_digits_capitals_currency_or_trigger_words_never_violates(
    text: str,
) -> None:
    if _LOWER_TRIGGERS.search(text):
        return
    assert no_free_facts(text, registered_ids=()) == []


FACTS = [
    "Sales fell 12%",
    "It cost $40",
    "La ley se aprobó en marzo",
    "Gallup asked 400 people",
    "El programa costó 1.200 €",
    "La OMS lo dijo",
    "It happened on 2024-03-12",
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FACTS), st.sampled_from(sorted(REGISTERED)), st.sampled_from(".!?"))
def test_appending_a_valid_citation_removes_the_violation(
    fact: str, claim_id: str, end: str
) -> None:
    assert len(no_free_facts(fact + end, registered_ids=REGISTERED)) == 1
    assert no_free_facts(f"{fact} [{claim_id}]{end}", registered_ids=REGISTERED) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FACTS + ["We agree", "Es un buen punto"]), max_size=6))
def test_each_uncited_fact_sentence_is_one_violation(sentences: list[str]) -> None:
    text = " ".join(s + "." for s in sentences)
    expected = [s + "." for s in sentences if s in FACTS]
    assert [v.sentence for v in no_free_facts(text, registered_ids=REGISTERED)] == expected


# --- Muḥāsabah -----------------------------------------------------------------------


def record(**changes) -> MuhasabahRecord:
    fields = {
        "agent_id": "advocate",
        "output_id": "out-1",
        "supported_claim_ids": ["C-1"],
        "falsifiability_tests": ["A later survey showing no drop would refute this."],
        "uncertainties": ["The sample is small."],
        "confidence": 0.7,
        "failure_modes": ["Seasonal effects."],
        "timestamp": datetime(2026, 11, 23, tzinfo=UTC),
    }
    fields.update(changes)
    return MuhasabahRecord(**fields)


def rule_codes(rec: MuhasabahRecord | None, content: str = "Sales fell [C-1].", **kw):
    return [
        v.code for v in muhasabah_violations(rec, content=content, registered_ids=REGISTERED, **kw)
    ]


def test_a_complete_record_passes() -> None:
    assert rule_codes(record()) == []


def test_it_rejects_an_output_with_no_record() -> None:
    (violation,) = muhasabah_violations(None, content="x", registered_ids=REGISTERED)
    assert violation.code is GateCode.NO_RECORD
    assert "self-accounting record" in violation.message


@pytest.mark.parametrize(
    ("confidence", "flagged"), [(0.80, False), (0.8000001, True), (0.81, True), (1.0, True)]
)
def test_it_wants_an_uncertainty_above_080(confidence: float, flagged: bool) -> None:
    assert (
        GateCode.OVERCONFIDENT in rule_codes(record(confidence=confidence, uncertainties=[]))
    ) is flagged
    assert rule_codes(record(confidence=confidence)) == []


def test_a_blank_uncertainty_does_not_count() -> None:
    assert GateCode.OVERCONFIDENT in rule_codes(record(confidence=0.9, uncertainties=["  "]))


@pytest.mark.parametrize(
    ("confidence", "flagged"), [(0.0, False), (0.50, False), (0.5000001, True), (0.51, True)]
)
def test_it_wants_a_falsifiability_test_above_050(confidence: float, flagged: bool) -> None:
    codes = rule_codes(record(confidence=confidence, falsifiability_tests=[]))
    assert (GateCode.UNFALSIFIABLE in codes) is flagged


def test_it_reports_every_rule_broken_at_once() -> None:
    codes = rule_codes(
        record(confidence=0.95, uncertainties=[], falsifiability_tests=[], supported_claim_ids=[]),
        content="Sales fell 12% [C-77].",
    )
    assert codes == [
        GateCode.OVERCONFIDENT,
        GateCode.UNFALSIFIABLE,
        GateCode.UNSUPPORTED_FACTS,
        GateCode.UNREGISTERED_CITATION,
    ]


def test_it_wants_supported_claims_only_when_the_content_states_facts() -> None:
    assert GateCode.UNSUPPORTED_FACTS in rule_codes(
        record(supported_claim_ids=[]), content="A drop found by Ipsos [C-1]."
    )
    assert rule_codes(record(supported_claim_ids=[]), content="I doubt the premise.") == []


def test_it_names_every_unregistered_id_once() -> None:
    violations = muhasabah_violations(
        record(supported_claim_ids=["C-1", "C-8"]),
        content="It fell [C-8, K-9].",
        registered_ids=REGISTERED,
        claim_refs=["K-9", "C-10"],
    )
    (violation,) = violations
    assert violation.code is GateCode.UNREGISTERED_CITATION
    assert "C-8, K-9, C-10" in violation.message


def test_a_record_keeps_confidence_between_0_and_1_and_refuses_unknown_fields() -> None:
    with pytest.raises(ValidationError):
        record(confidence=1.01)
    with pytest.raises(ValidationError):
        record(confidence=-0.1)
    with pytest.raises(ValidationError):
        record(mood="sure")


def test_it_reads_every_message_back_into_its_key_and_parameters() -> None:
    from inquiries.gates import MESSAGES, gate_message, read_back

    params = {"sentence": 'It "fell" 12%.', "kind": "a percentage", "evidence": "12%"}
    params |= {"ids": "C-1, C-2", "confidence": "0.90"}
    for key, message in MESSAGES.items():
        used = {name: value for name, value in params.items() if f"%({name})s" in message}
        rule = key.removesuffix("_UNREGISTERED")
        assert read_back(rule, gate_message(key, **used)) == (key, used)
    assert read_back("NO_FREE_FACTS", "Some other words.") is None


def test_it_says_a_stored_gate_message_in_the_readers_language() -> None:
    from django.utils import translation

    from inquiries.presenters import gate_sentence

    (violation,) = no_free_facts("Pollution fell by 12%.", registered_ids=REGISTERED)
    record = MuhasabahRecord(
        agent_id="a", output_id="o", confidence=0.9, timestamp="2026-01-01T00:00:00Z"
    )
    broken = muhasabah_violations(record, content="", registered_ids=REGISTERED)
    with translation.override("es"):
        spanish = gate_sentence(violation.code.value, violation.message)
        others = [gate_sentence(v.code.value, v.message) for v in broken]
    assert spanish.startswith("La frase «Pollution fell by 12%.» afirma un porcentaje («12%»)")
    assert "registered" not in spanish
    assert others and all(s.startswith("Tu confianza es 0.90") for s in others)
    assert gate_sentence("CALC_INVALID", "Calculation K: bad") == "Calculation K: bad"
