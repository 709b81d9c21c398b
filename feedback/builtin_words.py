"""The default rubric's words in the reader's language, at display time.

``feedback.services.default_rubric`` seeds a rubric in the assignment's language
(the argument's step names, or a discussion's criteria, then "Overall
coherence"; the levels Missing / Weak / Adequate / Strong). A reader of the
other language reads those built-in rows in theirs: each is known by a stable
key (the step's id, the discussion criterion's place, "coherence", the level's
place in the default scale) and shown with that key's words. A name or a scale
an instructor wrote (or edited) matches no key and stays as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from coach.steps import STEPS
from feedback.levels import DEFAULT_LEVELS, DEFAULT_LEVELS_ES, Level
from feedback.services import COHERENCE, DISCUSSION_CRITERIA

__all__ = ["criterion_name", "level_labels"]

LANGUAGES = ("en", "es")


def _criteria() -> dict[str, dict[str, str]]:
    """Stable key -> the built-in criterion's name in each language."""
    names = {f"step:{step.id}": {lang: step.label(lang) for lang in LANGUAGES} for step in STEPS}
    for index in range(len(DISCUSSION_CRITERIA["en"])):
        names[f"discussion:{index}"] = {
            lang: DISCUSSION_CRITERIA[lang][index] for lang in LANGUAGES
        }
    names["coherence"] = dict(COHERENCE)
    return names


_SCALES = {
    "en": [(str(level["label"]), level["points"]) for level in DEFAULT_LEVELS],
    "es": [(str(level["label"]), level["points"]) for level in DEFAULT_LEVELS_ES],
}


def criterion_name(name: str, language: str) -> str:
    """A built-in criterion's name in ``language``; any other name as written."""
    for words in _criteria().values():
        if name in words.values():
            return words.get(language, name)
    return name


def level_labels(levels: Sequence[Level], language: str) -> list[Level]:
    """The default scale's labels in ``language`` when ``levels`` is that scale, untouched
    in either language; a scale an instructor changed (a label or a point) as written."""
    if language not in _SCALES:
        return list(levels)
    found = [(level.label, level.points) for level in levels]
    if not any(found == scale for scale in _SCALES.values()):
        return list(levels)
    return [Level(label=label, points=points) for label, points in _SCALES[language]]
