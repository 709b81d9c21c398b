"""Required criteria an instructor can ask of a step, checked on the step's text.

Pure: no Django. Each criterion belongs to one Toulmin step (the coach's
step ids, `coach.steps.STEP_IDS`) and is a plain test on the text, in the
spirit of Toulmin's own account of each element (Toulmin, *The Uses of
Argument*, 1958, ch. III): grounds are facts one can point to, backing is
what vouches for the warrant, a qualifier says how strongly, a rebuttal
names the exceptions. `RequiredCriteria` validates an assignment's choice
(pydantic): {step id: [criterion code, ...]}, every code from `CRITERIA`
and for its own step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import RootModel, field_validator

__all__ = [
    "CRITERIA",
    "STEP_IDS",
    "Criterion",
    "RequiredCriteria",
    "criterion",
    "failed_criteria",
    "parse_required",
]

STEP_IDS: tuple[str, ...] = (
    "claim",
    "grounds",
    "warrant",
    "groundsBacking",
    "warrantBacking",
    "qualifier",
    "rebuttal",
)

_NUMBER = re.compile(r"\d")
# (Author, 2020) / (Author 2020) / [12] / a URL / "according to" / "según".
_CITATION = re.compile(
    r"\([^()]*\b(1[5-9]|20)\d\d[a-z]?\)|\[\d+\]|https?://|\baccording to\b|\bseg[uú]n\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b")
_HEDGES = re.compile(
    r"\b(probably|likely|usually|often|most|some|generally|in most cases|presumably|"
    r"probablemente|posiblemente|generalmente|normalmente|a menudo|la mayor[ií]a|"
    r"en general|suele|suelen)\b",
    re.IGNORECASE,
)
_EXCEPTION = re.compile(
    r"\b(unless|except|however|but if|a menos que|salvo|excepto|sin embargo|pero si)\b",
    re.IGNORECASE,
)


def _has_number_or_citation(text: str) -> bool:
    return bool(_NUMBER.search(text) or _CITATION.search(text))


def _names_source(text: str) -> bool:
    """A citation, a year, or a capitalised name after the first word ("the WHO", "Smith")."""
    later_words = text.split()[1:]
    named = any(word[:1].isupper() for word in later_words)
    return bool(_CITATION.search(text) or _YEAR.search(text) or named)


def _one_sentence(text: str) -> bool:
    parts = [p for p in re.split(r"[.!?]+(?:\s|$)", text.strip()) if p.strip()]
    return len(parts) == 1


@dataclass(frozen=True, slots=True)
class Criterion:
    """One requirement on one step's text."""

    code: str
    step: str
    label_en: str
    label_es: str
    check: Callable[[str], bool]

    def label(self, language: str) -> str:
        return self.label_es if language == "es" else self.label_en

    def passes(self, text: str) -> bool:
        return bool(text.strip()) and self.check(text)


CRITERIA: tuple[Criterion, ...] = (
    Criterion(
        "claim_is_one_sentence", "claim",
        "The claim is one sentence", "La afirmación es una sola oración",
        _one_sentence,
    ),
    Criterion(
        "grounds_has_number_or_citation", "grounds",
        "The grounds contain a number or a citation",
        "Los datos contienen un número o una cita",
        _has_number_or_citation,
    ),
    Criterion(
        "grounds_backing_names_source", "groundsBacking",
        "The grounds backing names a source", "El respaldo de los datos nombra una fuente",
        _names_source,
    ),
    Criterion(
        "warrant_backing_names_source", "warrantBacking",
        "The warrant backing names a source", "El respaldo de la garantía nombra una fuente",
        _names_source,
    ),
    Criterion(
        "qualifier_has_hedge", "qualifier",
        "The qualifier says how strongly (e.g. probably, in most cases)",
        "El calificador dice con qué fuerza (p. ej. probablemente, en la mayoría de los casos)",
        lambda text: bool(_HEDGES.search(text)),
    ),
    Criterion(
        "rebuttal_names_exception", "rebuttal",
        "The rebuttal names an exception (unless, except ...)",
        "La refutación nombra una excepción (a menos que, salvo ...)",
        lambda text: bool(_EXCEPTION.search(text)),
    ),
)  # fmt: skip

_BY_CODE = {c.code: c for c in CRITERIA}


def criterion(code: str) -> Criterion:
    """The criterion with this code; KeyError for anything else."""
    return _BY_CODE[code]


class RequiredCriteria(RootModel[dict[str, list[str]]]):
    """{step id: [criterion code, ...]}: each code known and belonging to that step."""

    @field_validator("root")
    @classmethod
    def _known(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        cleaned: dict[str, list[str]] = {}
        for step, codes in value.items():
            if step not in STEP_IDS:
                raise ValueError(f"unknown step {step!r}")
            for code in codes:
                found = _BY_CODE.get(code)
                if found is None:
                    raise ValueError(f"unknown criterion {code!r}")
                if found.step != step:
                    raise ValueError(f"{code!r} is a criterion of {found.step!r}, not {step!r}")
            unique = list(dict.fromkeys(codes))
            if unique:
                cleaned[step] = unique
        return cleaned


def parse_required(value: object) -> dict[str, list[str]]:
    """Validate stored or submitted criteria; pydantic.ValidationError when malformed."""
    return RequiredCriteria.model_validate(value if value is not None else {}).root


def failed_criteria(required: dict[str, list[str]], *, step: str, text: str) -> list[Criterion]:
    """The criteria required of `step` that `text` does not meet, in the order required."""
    return [_BY_CODE[code] for code in required.get(step, []) if not _BY_CODE[code].passes(text)]
