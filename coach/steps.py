"""The seven Toulmin steps a student goes through, in order.

Step ids are the contract's camelCase names (they travel in JSON between the
page, the endpoint and the model); model field names are the snake_case
columns of `coach.models.Argument`. This module is the one place that maps
one to the other, so nothing else spells the order or the names twice.

Labels are given in the argument's own language (en/es), not the page's:
a Spanish argument shown on an English page still names its parts in Spanish,
because that is the language the student and the coach are writing in.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "LANGUAGES",
    "STEPS",
    "STEP_IDS",
    "Step",
    "field_for",
    "get_step",
    "is_step",
    "label_for",
    "next_step",
    "step_for_field",
    "step_index",
]

LANGUAGES: tuple[str, ...] = ("en", "es")


@dataclass(frozen=True, slots=True)
class Step:
    """One element of a Toulmin argument."""

    id: str
    field: str
    label_en: str
    label_es: str

    def label(self, language: str) -> str:
        return self.label_es if language == "es" else self.label_en


STEPS: tuple[Step, ...] = (
    Step("claim", "claim", "Claim", "Afirmación"),
    Step("grounds", "grounds", "Grounds", "Datos"),
    Step("warrant", "warrant", "Warrant", "Garantía"),
    Step("groundsBacking", "grounds_backing", "Grounds backing", "Respaldo de los datos"),
    Step("warrantBacking", "warrant_backing", "Warrant backing", "Respaldo de la garantía"),
    Step("qualifier", "qualifier", "Qualifier", "Calificador"),
    Step("rebuttal", "rebuttal", "Rebuttal", "Refutación"),
)

STEP_IDS: tuple[str, ...] = tuple(step.id for step in STEPS)
_BY_ID = {step.id: step for step in STEPS}
_BY_FIELD = {step.field: step for step in STEPS}


def is_step(step_id: object) -> bool:
    """Whether `step_id` names one of the seven steps (the JSON id, not the field)."""
    return isinstance(step_id, str) and step_id in _BY_ID


def get_step(step_id: str) -> Step:
    """The step with this id; KeyError for anything else."""
    return _BY_ID[step_id]


def field_for(step_id: str) -> str:
    """The `Argument` field that stores this step's text."""
    return _BY_ID[step_id].field


def step_for_field(field: str) -> str:
    """The step id whose text lives in this `Argument` field."""
    return _BY_FIELD[field].id


def step_index(step_id: str) -> int:
    """0 for the claim ... 6 for the rebuttal."""
    return STEP_IDS.index(step_id)


def next_step(step_id: str) -> str | None:
    """The step after this one, or None after the rebuttal (the argument is complete)."""
    index = step_index(step_id)
    return STEP_IDS[index + 1] if index + 1 < len(STEP_IDS) else None


def label_for(step_id: str, language: str) -> str:
    """The step's name in the argument's language."""
    return _BY_ID[step_id].label(language)
