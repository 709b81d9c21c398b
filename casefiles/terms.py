"""The words a span is indexed by and a query asks for: one rule for both databases.

PostgreSQL's text-search parser and SQLite's ``unicode61`` tokenizer cut text
differently (``1.2``, ``cycle-lanes``, URLs, e-mail addresses), so neither
sees the raw text: both index ``Span.search_text``, the span's words as cut
here, lower-cased, each between its own pair of spaces (`` w1  w2  w3 ``).
Given only letters and digits, both tokenizers find exactly these words, and
the count of `` w `` in that string is the word's frequency in the span
(the padding keeps repeated words from sharing a space), which
``casefiles.retrieval`` uses to rank the same way on both.

A word is a run of letters (Unicode category L*) and decimal digits, after
NFC normalisation (so a precomposed and a combining accent are one letter);
accents are kept, case is folded with ``str.lower``. No stemming: matching is
on the word as written, in any language (PostgreSQL's ``simple``
configuration, Robertson & Zaragoza 2009 for the ranking itself).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_QUERY_CHARS", "MAX_TERMS", "MAX_WORD_CHARS", "query_terms", "search_text", "words"]

MAX_TERMS = 24
MAX_QUERY_CHARS = 2000
MAX_WORD_CHARS = 60
# Letters and decimal digits: \w minus the underscore and the non-decimal numbers (No, Nl).
_WORD = re.compile(r"[^\W_]+")


def _letters_and_digits(piece: str):
    """Split a \\w run at the characters that are neither letters nor decimal digits."""
    if all(ch.isalpha() or ch.isdecimal() for ch in piece):
        yield piece
        return
    word = ""
    for ch in piece:
        if ch.isalpha() or ch.isdecimal():
            word += ch
        elif word:
            yield word
            word = ""
    if word:
        yield word


def _word_pieces(text: str):
    for match in _WORD.finditer(unicodedata.normalize("NFC", text).lower()):
        for word in _letters_and_digits(match.group(0)):
            if len(word) <= MAX_WORD_CHARS:
                yield word


def words(text: str) -> list[str]:
    """The words of ``text`` in order, lower-cased (very long runs left out)."""
    return list(_word_pieces(text or ""))


def search_text(text: str) -> str:
    """What the index stores for ``text``: each word padded by its own spaces."""
    return "".join(f" {word} " for word in words(text))


def query_terms(query: str) -> list[str]:
    """The query's distinct words, in order, at most ``MAX_TERMS`` (operators are not words)."""
    seen: list[str] = []
    for word in words((query or "")[:MAX_QUERY_CHARS]):
        if word not in seen:
            seen.append(word)
            if len(seen) == MAX_TERMS:
                break
    return seen
