"""Whose words a confirmed proposal holds: the coach's, or the student's own said back.

Pure. When a student writes a step's text in the chat and the coach proposes
those same words for confirmation, accepting the card stores the student's
words, not the coach's; recording that as "accepted from the coach" told
instructors the coach wrote it. The comparison ignores case, spacing and
final punctuation, and allows small repairs (a fixed typo, an added
article) by a similarity ratio (difflib's Ratcliff/Obershelp measure:
Python documentation, ``difflib.SequenceMatcher.ratio``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

__all__ = ["SAME_WORDS_RATIO", "is_students_own", "normalise"]

# 0.9: a typo or an article fixed stays the student's; a rewritten clause does not.
SAME_WORDS_RATIO = 0.9


def normalise(text: str) -> str:
    """Casefolded, single-spaced, without quotes or final punctuation."""
    text = re.sub(r"\s+", " ", text.casefold()).strip()
    return text.strip(" \"'“”‘’«».!?;:,")


def is_students_own(proposed: str, student_texts: Iterable[str]) -> bool:
    """Whether `proposed` is (nearly) one of the student's own texts for the step."""
    target = normalise(proposed)
    if not target:
        return False
    for text in student_texts:
        own = normalise(text)
        if not own:
            continue
        if own == target or SequenceMatcher(None, own, target).ratio() >= SAME_WORDS_RATIO:
            return True
    return False
