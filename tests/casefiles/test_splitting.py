"""Spans are exact slices of the text, bounded, ordered, and cover every word."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from casefiles.splitting import split_spans

TEXTS = st.lists(
    st.sampled_from(["abc", "déf", ".", "?", "!", " ", "  ", "\n", "\n\n", ". ", "ñ", "x,;"]),
    max_size=600,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=TEXTS, max_chars=st.integers(min_value=1, max_value=400))
def test_it_cuts_exact_bounded_ordered_spans_covering_every_word(text, max_chars) -> None:
    spans = split_spans(text, max_chars=max_chars)
    previous_end = 0
    covered = [False] * len(text)
    for span in spans:
        piece = text[span.start : span.end]
        assert piece and piece == piece.strip()
        assert span.end - span.start <= max_chars
        assert span.start >= previous_end
        previous_end = span.end
        for i in range(span.start, span.end):
            covered[i] = True
    # Every non-space character belongs to some span.
    assert all(covered[i] for i, ch in enumerate(text) if not ch.isspace())


def test_it_keeps_short_paragraphs_whole_and_cuts_long_ones_at_sentences() -> None:
    text = "First paragraph. Short.\n\nSecond one is here. " + "It goes on. " * 10
    spans = [text[s.start : s.end] for s in split_spans(text, max_chars=60)]
    assert spans[0] == "First paragraph. Short."
    assert all(piece.endswith(".") for piece in spans)
    assert len(spans) > 2


def test_it_gives_no_span_for_blank_text() -> None:
    assert split_spans("  \n\n \t ") == []


def test_parse_span_key_reads_only_plain_span_ids() -> None:
    from casefiles.models import parse_span_key

    assert parse_span_key("S3.12") == (3, 12)
    for junk in ("X3.12", "S3.²", "S3", "S.1", "S1.2.3", "S" + "9" * 30 + ".1", " S3.1", ""):
        assert parse_span_key(junk) is None, junk
