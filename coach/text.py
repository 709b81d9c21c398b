"""Text normalisation shared by the intent detector and the step heuristics.

Students type "Sí!!", "si", "SÍ, me sirve." and "está bien" alike; matching
works on a folded form: case-folded, accents stripped, punctuation turned
into spaces, whitespace collapsed. "ñ" folds to "n", which no phrase we look
for depends on.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import filterfalse

__all__ = ["contains_phrase", "fold", "words"]

_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


# Cached: a coach turn folds the student's message several times (the intents, the
# heuristics), and a message at the 4,000-character limit took about half a millisecond.
@lru_cache(maxsize=512)
def fold(text: str) -> str:
    """Lower-case, accent-free, punctuation-free, single-spaced."""
    stripped = unicodedata.normalize("NFKD", text.casefold())
    if not stripped.isascii():  # ASCII has no combining marks to drop
        stripped = "".join(filterfalse(unicodedata.combining, stripped))
    return " ".join(_NON_WORD.sub(" ", stripped).replace("_", " ").split())


def words(text: str) -> list[str]:
    """The folded words of `text`."""
    return fold(text).split()


def contains_phrase(folded: str, phrase: str) -> bool:
    """Whether the already-folded text holds `phrase` as whole words.

    A phrase ending in "*" matches any word starting with it ("publish*"
    matches "published" and "publishing").
    """
    target = fold(phrase.rstrip("*"))
    if not target:
        return False
    tail = r"\w*" if phrase.endswith("*") else ""
    return re.search(rf"(?<!\w){re.escape(target)}{tail}(?!\w)", folded) is not None
