"""untrusted.spreadsheet: no cell of a CSV the product writes is a formula to a spreadsheet."""

from __future__ import annotations

import csv
import io
import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st

from untrusted.spreadsheet import needs_neutralising, safe_cell, safe_writer

FORMULA_STARTS = ["=", "+", "-", "@", "＝", "﹢", "－", "＠"]
# What a spreadsheet skips before a formula: spaces and line breaks of every kind,
# non-breaking and zero-width spaces, joiners, the byte-order mark, bidi marks.
INVISIBLE = [
    " ",
    "  ",
    "\n",
    "\r\n",
    "\x0b",
    "\x0c",
    "\xa0",
    "\u2007",
    "\u202f",
    "\u3000",
    "\u2003",
    "\u200b",
    "\u200c",
    "\u200d",
    "\u2060",
    "\ufeff",
    "\u200e",
    "\u202e",
    "\u00ad",
    "\u180e",
    "\u3164",
    "\u2028",
    "\u034f",
    "\n\u200b ",
]

invisible_prefix = st.lists(st.sampled_from(INVISIBLE), max_size=4).map("".join)
hostile = st.builds(
    lambda prefix, start, rest: prefix + start + rest,
    invisible_prefix,
    st.sampled_from(FORMULA_STARTS),
    st.text(max_size=30),
)


def _old_check(value: str) -> bool:
    # What the writers checked before: the first character only.
    return value[:1] in ("=", "+", "-", "@", "\t", "\r")


def _first_visible(text: str) -> str:
    for ch in text:
        if ch.isspace() or unicodedata.category(ch) in {"Cc", "Cf", "Zs", "Zl", "Zp", "Mn"}:
            continue
        return ch
    return ""


def test_it_neutralises_a_formula_after_any_invisible_start() -> None:
    cells = [prefix + start + 'HYPERLINK("http://x")' for prefix in INVISIBLE for start in "=+-@"]
    passing_before = [cell for cell in cells if not _old_check(cell)]
    passing_now = [cell for cell in cells if safe_cell(cell) == cell]
    print(
        f"hostile cells passing through: {len(passing_before)} of {len(cells)} before, "
        f"{len(passing_now)} now"
    )
    assert passing_now == []


@example("\t1")
@example("\r=1")
@example(" \t x")
@given(hostile)
def test_it_never_leaves_a_hostile_cell_as_it_was(cell: str) -> None:
    assert safe_cell(cell) == "'" + cell


@given(st.text(max_size=40))
def test_it_only_ever_puts_a_quote_in_front(cell: str) -> None:
    out = safe_cell(cell)
    assert out in (cell, "'" + cell)
    assert not needs_neutralising(out)  # the quote is visible and is not a formula
    if out == cell:
        first = unicodedata.normalize("NFKC", _first_visible(cell))[:1]
        assert first not in {"=", "+", "-", "@"}


@given(st.lists(st.one_of(st.text(max_size=20), hostile), min_size=1, max_size=6))
def test_it_writes_every_row_header_included_through_the_check(row: list[str]) -> None:
    out = io.StringIO()
    writer = safe_writer(out)
    writer.writerows([row, row])  # a header and a body row alike
    for read in csv.reader(io.StringIO(out.getvalue())):
        for cell in read:
            assert not needs_neutralising(cell)


def test_it_leaves_numbers_and_plain_text_alone() -> None:
    assert safe_cell(-3) == -3
    assert safe_cell("Cities should ban cars.") == "Cities should ban cars."
    assert safe_cell("") == ""
    assert safe_cell("a-b=c") == "a-b=c"
