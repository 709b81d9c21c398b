"""The registry on one reply, without a database: ids, grades against THIS case file, calcs, gates."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inquiries.registry import process_reply, written_in
from inquiries.schemas import AgentReply
from inquiries.state import ClaimView, InquiryState, SourceView

# The case file: SRC-1 is a study, SRC-2 and SRC-3 newspapers; SRC-2 reports SRC-1.
SPANS = {"S1.1": "SRC-1", "S2.1": "SRC-2", "S3.1": "SRC-3"}
TEXTS = {
    "S1.1": "Traffic fell by 22% in 2007, from 1,200 cars to 936 cars an hour.",
    "S2.1": "The study found traffic fell by 22%.",
    "S3.1": "Shops on the ring road reported steady sales.",
}
STATE = InquiryState(
    question="Should our city adopt congestion pricing?",
    language="en",
    models=(("advocate", "m"),),
    max_rounds=3,
    sources=(
        SourceView("SRC-1", "Study", "Uni", "2008", None),
        SourceView("SRC-2", "Paper", "Daily", "2008", "SRC-1"),
        SourceView("SRC-3", "Paper", "Weekly", "2009", None),
    ),
    claims=(ClaimView("C-1", "Sales held.", "C", "advocate", 1, (("S3.1", "SRC-3", ()),), False),),
    calcs=(),
    outputs=(),
    evidence=(),
    retrieved_rounds=(),
    round_log=(),
)
RECORD = {
    "supported_claim_ids": ["N1"],
    "falsifiability_tests": ["Count cars again next year."],
    "uncertainties": ["One city only."],
    "confidence": 0.7,
}


def _process(**reply):
    reply = AgentReply.model_validate({"position": "supports", "record": RECORD, **reply})
    return process_reply(
        reply,
        state=STATE,
        spans=SPANS,
        span_texts=TEXTS,
        agent="advocate",
        output_id="O-1",
        next_claim=2,
        next_calc=1,
    )


def test_it_gives_new_claims_the_next_ids_and_rewrites_their_labels() -> None:
    done = _process(
        content="Traffic fell by 22% [N1]. It went from 1,200 to 936 cars, a fall of [M1].",
        claim_refs=["N1", "M1"],
        new_claims=[
            {
                "label": "N1",
                "text": "Traffic fell by 22%.",
                "chains": [
                    {"span": "S1.1", "source": "SRC-1"},
                    {"span": "S3.1", "source": "SRC-3"},
                ],
            }
        ],
        calcs=[
            {
                "label": "M1",
                "op": "difference",
                "inputs": [{"span": "S1.1", "value": "1,200"}, {"span": "S1.1", "value": "936"}],
            }
        ],
    )

    assert done.accepted, done.violations
    assert [c.key for c in done.claims] == ["C-2"] and done.claims[0].grade == "B"
    assert [(k.key, k.result) for k in done.calcs] == [("K-1", "264")]
    assert done.content == (
        "Traffic fell by 22% [C-2]. It went from 1,200 to 936 cars, a fall of [K-1]."
    )
    assert done.claim_refs == ["C-2", "K-1"] and done.record.supported_claim_ids == ["C-2"]


def test_two_chains_through_one_origin_count_once() -> None:
    done = _process(
        content="Traffic fell by 22% [N1].",
        new_claims=[
            {
                "label": "N1",
                "text": "Traffic fell by 22%.",
                "chains": [
                    {"span": "S1.1", "source": "SRC-1"},
                    {"span": "S2.1", "source": "SRC-2", "origins": ["SRC-1"]},
                ],
            }
        ],
    )

    assert done.claims[0].grade == "C"


def test_a_chain_to_a_span_outside_this_case_file_is_broken() -> None:
    done = _process(
        content="Traffic fell by 22% [N1].",
        new_claims=[
            {
                "label": "N1",
                "text": "Traffic fell.",
                "chains": [{"span": "S9.1", "source": "SRC-9"}],
            }
        ],
    )

    claim = done.claims[0]
    assert claim.grade == "D"
    assert {d["code"] for d in claim.defects} >= {"BROKEN_CHAIN"}


def test_a_calc_on_a_number_the_span_does_not_write_is_sent_back() -> None:
    done = _process(
        content="The fall was [M1] [C-1].",
        claim_refs=["C-1"],
        calcs=[
            {
                "label": "M1",
                "op": "percentage",
                "inputs": [{"span": "S1.1", "value": "20"}, {"span": "S1.1", "value": "1,200"}],
            }
        ],
        record={**RECORD, "supported_claim_ids": ["C-1"]},
    )

    assert not done.accepted and not done.calcs
    assert "CALC_INPUT_NOT_IN_SPAN" in {rule for rule, _ in done.violations}


def test_a_free_fact_and_an_unregistered_id_are_violations() -> None:
    done = _process(
        content="Stockholm cut traffic by 20% in 2007. Sales held [C-7].",
        claim_refs=["C-7"],
        record={**RECORD, "supported_claim_ids": ["C-7"]},
    )

    rules = {rule for rule, _ in done.violations}
    assert not done.accepted
    assert "NO_FREE_FACTS" in rules
    assert "UNREGISTERED_CITATION" in rules


def test_a_reply_without_a_record_is_rejected() -> None:
    done = _process(content="Sales held [C-1].", claim_refs=["C-1"], record=None)

    assert "NO_RECORD" in {rule for rule, _ in done.violations}


def test_written_in_matches_whole_numbers_only() -> None:
    assert written_in("1,200", "from 1,200 cars")
    assert written_in("22%", "fell by 22%.")
    assert not written_in("20", "in 2007")
    assert not written_in("20", "1.20 euros")
    assert not written_in("200", "1,200 cars")
    assert not written_in("", "anything")
    assert not written_in("many", "many cars")


@given(st.integers(min_value=0, max_value=10**9), st.text(max_size=20))
def test_a_number_written_between_words_is_found(number: int, words: str) -> None:
    words = "".join(c for c in words if not c.isdigit() and c not in ".,")
    assert written_in(str(number), f"{words} {number} {words}")
