"""search_text, the context search of the research tool: properties (no database)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.research import search_text


@given(
    query=st.text(alphabet="abcdefgh .", max_size=40),
    text=st.text(alphabet="abcdefgh .!?", max_size=400),
    k=st.integers(min_value=1, max_value=5),
)
def test_search_text_returns_at_most_k_ranked_sentences_of_the_text(query, text, k) -> None:
    found = search_text(query, text, k)
    assert len(found) <= k
    shares = [share for _, share in found]
    assert all(0 < s <= 1 for s in shares) and shares == sorted(shares, reverse=True)
    assert all(sentence in text for sentence, _ in found)
