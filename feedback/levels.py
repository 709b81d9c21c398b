"""A rubric criterion's levels: a short list of {label, points}, checked at the edge.

Pure module: pydantic validates what the admin or a JSON field holds before it
is stored or summed. The default rubric follows the issue (one criterion per
Toulmin element plus overall coherence; Missing 0 / Weak 1 / Adequate 2 /
Strong 3), after the analytic-rubric layout of Brookhart, *How to Create and
Use Rubrics* (ASCD, 2013), ch. 2: criteria as rows, performance levels as columns.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

__all__ = [
    "DEFAULT_LEVELS",
    "DEFAULT_LEVELS_ES",
    "Level",
    "MAX_LEVELS",
    "MAX_POINTS",
    "levels_as_text",
    "levels_from_text",
    "max_points",
    "parse_levels",
    "points_for",
]

MAX_LEVELS = 10
MAX_POINTS = 1000


class Level(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    label: Annotated[str, Field(min_length=1, max_length=60)]
    points: Annotated[int, Field(ge=0, le=MAX_POINTS)]

    @field_validator("label")
    @classmethod
    def _stripped(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("empty label")
        return value


_LEVELS = TypeAdapter(Annotated[list[Level], Field(min_length=1, max_length=MAX_LEVELS)])

DEFAULT_LEVELS: tuple[dict[str, object], ...] = (
    {"label": "Missing", "points": 0},
    {"label": "Weak", "points": 1},
    {"label": "Adequate", "points": 2},
    {"label": "Strong", "points": 3},
)
# The same levels for an assignment written in Spanish (rubric rows are data, in
# the assignment's language, like the argument's step labels).
DEFAULT_LEVELS_ES: tuple[dict[str, object], ...] = (
    {"label": "Ausente", "points": 0},
    {"label": "Débil", "points": 1},
    {"label": "Adecuado", "points": 2},
    {"label": "Sólido", "points": 3},
)


def parse_levels(value: object) -> list[Level]:
    """The levels in `value`, or pydantic.ValidationError (1 to MAX_LEVELS, each {label, points})."""
    return _LEVELS.validate_python(value)


def points_for(levels: object, index: int) -> int | None:
    """The points of level `index`, or None when the index names no level."""
    parsed = parse_levels(levels)
    if not 0 <= index < len(parsed):
        return None
    return parsed[index].points


def max_points(levels: object) -> int:
    """The most a criterion with these levels can give."""
    return max(level.points for level in parse_levels(levels))


def levels_as_text(levels: object) -> str:
    """One level per line, "label = points": how an instructor edits them in the admin."""
    return "\n".join(f"{level.label} = {level.points}" for level in parse_levels(levels))


def levels_from_text(text: str) -> list[dict[str, object]]:
    """The levels written one per line as "label = points" (blank lines ignored).

    The label is everything before the last "=" (so a label may contain one);
    raises ValueError naming the first line that is not "label = whole number",
    and pydantic.ValidationError for what `parse_levels` refuses.
    """
    levels: list[dict[str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        label, sep, points = line.rpartition("=")
        if not sep or not points.strip().isdigit() or not label.strip():
            raise ValueError(f"line {number}")
        levels.append({"label": label.strip(), "points": int(points.strip())})
    return [level.model_dump() for level in parse_levels(levels)]
