"""A case file's word index, as plain values: each word's spans, and how often it is in each.

``casefiles.retrieval`` ranks by BM25 (Robertson & Zaragoza 2009), which for
every span holding a query word needs three numbers: the span's id, its length
in words and the word's count in it. Counting them from the spans' text at query
time cost PostgreSQL ~14 ms a search for a 2,000-span case file (every span read,
its stored text decompressed). So they are counted once, when a source is added,
and kept per case file and word (``SearchTerm``): ``df`` spans hold the word, and
``postings`` lists one code per span.

A code packs the three numbers into one integer, so both databases read a posting
list with one cheap built-in (PostgreSQL ``string_to_array``, SQLite ``json_each``)
and unpack it with integer division: ``code = id * 2**24 + length * 2**12 + count``.
A span is at most ``MAX_SPAN_CHARS`` (700) characters, so its length and a word's
count are at most 350, well under 4,096; a span id has 39 bits before a code leaves
a signed 64-bit integer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

__all__ = ["COUNT_BITS", "LENGTH_BITS", "pack", "postings_of", "unpack"]

COUNT_BITS = 12
LENGTH_BITS = 12
_LIMIT = 1 << 12


def pack(span_id: int, length: int, count: int) -> int:
    """One posting: a span's id, its length in words, the word's count in it."""
    if not (0 <= length < _LIMIT and 0 < count < _LIMIT and span_id > 0):
        raise ValueError(f"cannot pack span {span_id}: length {length}, count {count}")
    return (span_id << (LENGTH_BITS + COUNT_BITS)) | (length << COUNT_BITS) | count


def unpack(code: int) -> tuple[int, int, int]:
    """(span id, length, count) of a posting."""
    return (
        code >> (LENGTH_BITS + COUNT_BITS),
        (code >> COUNT_BITS) % _LIMIT,
        code % _LIMIT,
    )


def postings_of(spans: Iterable[tuple[int, str]]) -> dict[str, list[int]]:
    """Each word's postings over ``spans`` ((id, ``search_text``) pairs), in the spans' order.

    ``search_text`` is the span's words as ``casefiles.terms`` cut them, each
    padded by spaces, so splitting on whitespace gives them back.
    """
    index: dict[str, list[int]] = {}
    for span_id, search_text in spans:
        words = search_text.split()
        length = len(words)
        for word, count in Counter(words).items():
            index.setdefault(word, []).append(pack(span_id, length, count))
    return index
