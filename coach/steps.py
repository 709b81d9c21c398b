"""The seven Toulmin steps a student goes through, in order.

Step ids are the contract's camelCase names (they travel in JSON between the
page, the endpoint and the model); model field names are the snake_case
columns of `coach.models.Argument`. This module is the one place that maps
one to the other, so nothing else spells the order or the names twice.

Labels exist in both languages (en/es). What the coach writes names the
steps in the argument's language, the language the student and the coach are
writing in; a page names them in its reader's language (`reader_language`),
like every other word around the argument.

A label is a title ("Grounds", "Datos"). Inside a sentence a step needs its
own noun phrase, because articles and agreement differ per step: "the
grounds" (no "a"), "tus datos" (plural), "la garantía" (feminine). Each step
carries three (`NounPhrases`), so no template glues an article to a label.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation

__all__ = [
    "LANGUAGES",
    "NounPhrases",
    "STEPS",
    "STEP_IDS",
    "Step",
    "field_for",
    "get_step",
    "is_step",
    "label_for",
    "next_step",
    "phrases_for",
    "reader_language",
    "step_for_field",
    "step_index",
]

LANGUAGES: tuple[str, ...] = ("en", "es")


@dataclass(frozen=True, slots=True)
class NounPhrases:
    """How a sentence names a step: "the grounds", "your grounds", "(as) grounds"."""

    the: str  # definite: "the grounds", "los datos"
    your: str  # possessive: "your grounds", "tus datos"
    as_: str  # after "works as" / "funciona como": "grounds", "datos", "a claim"


@dataclass(frozen=True, slots=True)
class Step:
    """One element of a Toulmin argument."""

    id: str
    field: str
    label_en: str
    label_es: str
    phrases_en: NounPhrases
    phrases_es: NounPhrases

    def label(self, language: str) -> str:
        return self.label_es if language == "es" else self.label_en

    def phrases(self, language: str) -> NounPhrases:
        return self.phrases_es if language == "es" else self.phrases_en


_N = NounPhrases
STEPS: tuple[Step, ...] = (
    Step(
        "claim", "claim", "Claim", "Afirmación",
        _N("the claim", "your claim", "a claim"),
        _N("la afirmación", "tu afirmación", "afirmación"),
    ),
    Step(
        "grounds", "grounds", "Grounds", "Datos",
        _N("the grounds", "your grounds", "grounds"),
        _N("los datos", "tus datos", "datos"),
    ),
    Step(
        "warrant", "warrant", "Warrant", "Garantía",
        _N("the warrant", "your warrant", "a warrant"),
        _N("la garantía", "tu garantía", "garantía"),
    ),
    Step(
        "groundsBacking", "grounds_backing", "Grounds backing", "Respaldo de los datos",
        _N("the backing for your grounds", "the backing for your grounds",
           "backing for your grounds"),
        _N("el respaldo de tus datos", "el respaldo de tus datos", "respaldo de tus datos"),
    ),
    Step(
        "warrantBacking", "warrant_backing", "Warrant backing", "Respaldo de la garantía",
        _N("the backing for your warrant", "the backing for your warrant",
           "backing for your warrant"),
        _N("el respaldo de tu garantía", "el respaldo de tu garantía", "respaldo de tu garantía"),
    ),
    Step(
        "qualifier", "qualifier", "Qualifier", "Calificador",
        _N("the qualifier", "your qualifier", "a qualifier"),
        _N("el calificador", "tu calificador", "calificador"),
    ),
    Step(
        "rebuttal", "rebuttal", "Rebuttal", "Refutación",
        _N("the rebuttal", "your rebuttal", "a rebuttal"),
        _N("la refutación", "tu refutación", "refutación"),
    ),
)  # fmt: skip

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


def reader_language() -> str:
    """The language the page is read in ("es" or "en"), for the step names a page shows.

    An argument's language is its content's: the coach's messages and the drafts.
    The words around them follow the reader's choice (the language cookie, else
    the browser), so opening an English argument does not turn the menu English.
    """
    return "es" if (translation.get_language() or "en").startswith("es") else "en"


def phrases_for(step_id: str, language: str) -> NounPhrases:
    """How a sentence in the argument's language names the step ("your grounds", "tus datos")."""
    return _BY_ID[step_id].phrases(language)
