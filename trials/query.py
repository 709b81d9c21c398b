"""The query a trial judges: the student's own argument, all seven parts, or a question.

The argument is given whole and in the student's words, labelled in its own
language, so the verdict judges what the student wrote rather than a summary
of it. An empty part is said to be empty, not left out: a missing warrant is
itself something the court should see.
"""

from __future__ import annotations

from collections.abc import Mapping

from coach.steps import STEPS

__all__ = ["argument_query", "question_query"]

_HEADINGS = {
    "en": ("A student's Toulmin argument", "(left empty)"),
    "es": ("Un argumento de Toulmin de un estudiante", "(vacío)"),
}


def argument_query(*, title: str, language: str, fields: Mapping[str, str]) -> str:
    """The argument as the chain's query; `fields` maps Argument field names to text."""
    heading, empty = _HEADINGS.get(language, _HEADINGS["en"])
    lines = [f"{heading}: {title.strip()}", ""]
    for step in STEPS:
        text = (fields.get(step.field) or "").strip()
        lines.append(f"{step.label(language)}: {text or empty}")
    return "\n".join(lines)


def question_query(*, question: str) -> str:
    """A free-text question goes to the chain as the student typed it."""
    return question.strip()
