"""Toulmin argument components as pydantic models, and the four trial-phase outputs.

These models are both the validation layer for what a language model returns and the
JSON schema it is asked to follow (`output_format=` in the anthropic SDK), so class
docstrings and field descriptions are written for that reader too: they end up in the
schema. Design decisions that matter to callers live here instead:

- Every model forbids unknown fields (`extra="forbid"`), so the generated schema
  carries `additionalProperties: false` and a model cannot smuggle in extra keys.
- Every string is stripped of surrounding whitespace *before* its length is checked,
  and the stored value is the stripped one: ten spaces are not a ten-character claim.
  List items (facts, exceptions, counterexamples) are stripped and must be non-empty.
- `confidence_pct` is a strict integer: `True`, `90.0` and `"90"` are rejected, in
  Python and in JSON alike, because a percentage that arrives as a bool or float is a
  sign the model misunderstood the field.
- Every field is required, including `Rebuttal.counterexamples` (which may be `[]`):
  the API's structured output handles required fields best, and an explicit empty
  list says "none" where an omitted key says nothing.
- Cross-field checks (qualifier degree vs confidence, verdict reasoning vs status) are
  field validators on the later field, so a failure is reported at that field's path
  (`qualifier.confidence_pct`, `verdict.reasoning`). Their logic lives in the two
  plain functions `qualifier_range_error` and `verdict_contradiction_error`, which the
  rule module reuses for raw dicts: one source of truth for schema and rules.
- The contradiction check matches the whole words "fails" / "succeeds",
  case-insensitively, with regex word boundaries: "Fails" and "fails." count, while
  "failsafe" does not, nor do other inflections ("fail", "failed", "succeed").
  The model writes in the student's language, so the same check knows the Spanish
  verbs too ("falla", "fracasa" / "prospera", "triunfa"), whatever the language of
  the reply: a rule that only read English would pass every Spanish verdict. The
  status is the structured answer; the words only catch reasoning that argues the
  other way. ("falla" is also a noun, "a flaw": the prompt lists the words to avoid,
  and a reply that uses one anyway is sent back once, naming it.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    ValidationInfo,
    field_validator,
)

__all__ = [
    "CONTRADICTING_WORDS",
    "QUALIFIER_RANGES",
    "Backing",
    "Citation",
    "Claim",
    "ClaimScope",
    "Data",
    "EvidenceType",
    "LogicType",
    "Phase1Output",
    "Phase2Output",
    "Phase3Output",
    "Phase4Output",
    "Qualifier",
    "QualifierForce",
    "Rebuttal",
    "StrengthLevel",
    "Verdict",
    "VerdictStatus",
    "Warrant",
    "qualifier_range_error",
    "verdict_contradiction_error",
]


class StrengthLevel(StrEnum):
    """How strongly a component holds: absolute, strong, weak or irrelevant."""

    ABSOLUTE = "absolute"
    STRONG = "strong"
    WEAK = "weak"
    IRRELEVANT = "irrelevant"


class VerdictStatus(StrEnum):
    """The outcome of the trial for the claim."""

    SUSTAINED = "sustained"
    OVERRULED = "overruled"
    REMANDED = "remanded"


class QualifierForce(StrEnum):
    """The modal force with which the claim is asserted."""

    CERTAINLY = "certainly"
    PRESUMABLY = "presumably"
    PROBABLY = "probably"
    POSSIBLY = "possibly"
    APPARENTLY = "apparently"


class LogicType(StrEnum):
    """The kind of inference the warrant licenses."""

    DEDUCTIVE = "deductive"
    INDUCTIVE = "inductive"
    ABDUCTIVE = "abductive"


class EvidenceType(StrEnum):
    """The kind of evidence the data is."""

    EMPIRICAL = "empirical"
    STATISTICAL = "statistical"
    TESTIMONIAL = "testimonial"
    DOCUMENTARY = "documentary"
    EXPERT = "expert"


ClaimScope = Literal["universal", "general", "specific", "singular"]

# Inclusive (low, high) confidence percentages per degree. The ranges tile 0..100
# without gaps or overlaps, so every valid percentage belongs to exactly one degree.
QUALIFIER_RANGES: Mapping[QualifierForce, tuple[int, int]] = MappingProxyType(
    {
        QualifierForce.CERTAINLY: (90, 100),
        QualifierForce.PRESUMABLY: (70, 89),
        QualifierForce.PROBABLY: (50, 69),
        QualifierForce.POSSIBLY: (30, 49),
        QualifierForce.APPARENTLY: (0, 29),
    }
)

# The words a verdict's reasoning must not use for each status, English first, then
# Spanish (the languages of the site); remanded has none, because sending a claim
# back is compatible with saying part of it fails or succeeds.
CONTRADICTING_WORDS: Mapping[VerdictStatus, tuple[str, ...]] = MappingProxyType(
    {
        VerdictStatus.SUSTAINED: ("fails", "falla", "fracasa"),
        VerdictStatus.OVERRULED: ("succeeds", "prospera", "triunfa"),
    }
)
_CONTRADICTION_PATTERNS = {
    status: re.compile(rf"\b(?:{'|'.join(map(re.escape, words))})\b", re.IGNORECASE)
    for status, words in CONTRADICTING_WORDS.items()
}


def _quoted(words: tuple[str, ...]) -> str:
    quoted = [f"'{word}'" for word in words]
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0]


# Strings are stripped first, then their length is checked (see module docstring).
# Upper bounds too: a model that ignores max_tokens must not get a megabyte into a
# trial. Each cap is far above what the prompts ask for and above what a phase's
# max_tokens (2,000, about 8,000 characters for the whole reply) lets an honest
# reply put in one field, so only a misbehaving reply meets it.
MAX_TEXT_CHARS = 2000
MAX_ITEMS = 12  # facts, citations, exceptions, counterexamples
NonEmptyText = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TEXT_CHARS)
]
Text10 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=10, max_length=MAX_TEXT_CHARS)
]
Text20 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=20, max_length=MAX_TEXT_CHARS)
]
Text50 = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=50, max_length=MAX_TEXT_CHARS)
]


def qualifier_range_error(*, degree: QualifierForce, confidence_pct: int) -> str | None:
    """Why `confidence_pct` does not fit `degree`, or None when it fits.

    The message names the allowed range and the degree the percentage does belong to,
    so it can be sent back to a model as a correction.
    """
    low, high = QUALIFIER_RANGES[degree]
    if low <= confidence_pct <= high:
        return None
    message = (
        f"confidence_pct {confidence_pct} is outside the {low}-{high} range "
        f"of qualifier degree '{degree.value}'"
    )
    fitting = [d for d, (lo, hi) in QUALIFIER_RANGES.items() if lo <= confidence_pct <= hi]
    if fitting:
        message += f"; {confidence_pct} belongs to '{fitting[0].value}'"
    return message


def verdict_contradiction_error(*, status: VerdictStatus, reasoning: str) -> str | None:
    """Why `reasoning` contradicts `status`, or None when it does not."""
    pattern = _CONTRADICTION_PATTERNS.get(status)
    found = pattern.search(reasoning) if pattern is not None else None
    if found is None:
        return None
    return (
        f"reasoning says '{found.group(0).lower()}' but the status is '{status.value}'; "
        f"the reasoning of a '{status.value}' verdict must not use the words "
        f"{_quoted(CONTRADICTING_WORDS[status])}"
    )


class Citation(BaseModel):
    """A source and the exact place in it that supports a statement."""

    # Frozen so citations are hashable: callers dedupe them in sets.
    model_config = ConfigDict(extra="forbid", frozen=True)

    source: NonEmptyText = Field(description="Who or what published it.")
    reference: NonEmptyText = Field(description="Where in the source: page, URL, section.")


class Data(BaseModel):
    """The grounds: facts offered in support of the claim, with their citations."""

    model_config = ConfigDict(extra="forbid")

    facts: list[NonEmptyText] = Field(
        min_length=1, max_length=MAX_ITEMS, description="At least one fact."
    )
    citations: list[Citation] = Field(
        min_length=1, max_length=MAX_ITEMS, description="At least one citation."
    )
    evidence_type: EvidenceType


class Claim(BaseModel):
    """The conclusion being argued for, stated as an assertion (not a question)."""

    model_config = ConfigDict(extra="forbid")

    statement: Text10 = Field(
        description="At least 10 characters; an assertion, so it must not end with '?'."
    )
    scope: ClaimScope

    @field_validator("statement")
    @classmethod
    def _not_a_question(cls, statement: str) -> str:
        if statement.endswith("?"):
            raise ValueError("a claim is an assertion and must not end with '?'")
        return statement


class Warrant(BaseModel):
    """The general principle that licenses the step from data to claim."""

    model_config = ConfigDict(extra="forbid")

    principle: Text20 = Field(description="At least 20 characters.")
    logic_type: LogicType
    strength: StrengthLevel


class Backing(BaseModel):
    """The authority that supports the warrant, with its citations."""

    model_config = ConfigDict(extra="forbid")

    authority: Text10 = Field(description="At least 10 characters.")
    citations: list[Citation] = Field(
        min_length=1, max_length=MAX_ITEMS, description="At least one citation."
    )
    strength: StrengthLevel


class Rebuttal(BaseModel):
    """Conditions under which the claim would not hold."""

    model_config = ConfigDict(extra="forbid")

    exceptions: list[NonEmptyText] = Field(
        min_length=1, max_length=MAX_ITEMS, description="At least one exception."
    )
    counterexamples: list[NonEmptyText] = Field(
        max_length=MAX_ITEMS, description="May be an empty list."
    )
    strength: StrengthLevel


_RANGES_TEXT = ", ".join(f"{d.value} {lo}-{hi}" for d, (lo, hi) in QUALIFIER_RANGES.items())


class Qualifier(BaseModel):
    """How confidently the claim is asserted, in words and as a percentage."""

    model_config = ConfigDict(extra="forbid")

    degree: QualifierForce
    confidence_pct: Annotated[StrictInt, Field(ge=0, le=100)] = Field(
        description=f"Integer 0-100 inside the degree's range: {_RANGES_TEXT}."
    )
    rationale: Text10 = Field(description="At least 10 characters.")

    @field_validator("confidence_pct")
    @classmethod
    def _inside_degree_range(cls, confidence_pct: int, info: ValidationInfo) -> int:
        # `degree` is absent from info.data when it failed its own validation; its
        # error is already reported, and there is no range to compare against.
        degree = info.data.get("degree")
        if degree is not None:
            error = qualifier_range_error(degree=degree, confidence_pct=confidence_pct)
            if error:
                raise ValueError(error)
        return confidence_pct


class Verdict(BaseModel):
    """The trial's outcome and the reasoning that leads to it."""

    model_config = ConfigDict(extra="forbid")

    status: VerdictStatus
    reasoning: Text50 = Field(
        description=(
            "At least 50 characters. Must not contain "
            f"{_quoted(CONTRADICTING_WORDS[VerdictStatus.SUSTAINED])} when sustained, "
            f"nor {_quoted(CONTRADICTING_WORDS[VerdictStatus.OVERRULED])} when overruled."
        )
    )
    final_statement: Text10 = Field(description="At least 10 characters.")

    @field_validator("reasoning")
    @classmethod
    def _consistent_with_status(cls, reasoning: str, info: ValidationInfo) -> str:
        status = info.data.get("status")
        if status is not None:
            error = verdict_contradiction_error(status=status, reasoning=reasoning)
            if error:
                raise ValueError(error)
        return reasoning


class Phase1Output(BaseModel):
    """Phase 1 of the trial: the data and the claim it supports."""

    model_config = ConfigDict(extra="forbid")

    data: Data
    claim: Claim


class Phase2Output(BaseModel):
    """Phase 2 of the trial: the warrant and its backing."""

    model_config = ConfigDict(extra="forbid")

    warrant: Warrant
    backing: Backing


class Phase3Output(BaseModel):
    """Phase 3 of the trial: the rebuttal and the resulting qualifier."""

    model_config = ConfigDict(extra="forbid")

    rebuttal: Rebuttal
    qualifier: Qualifier


class Phase4Output(BaseModel):
    """Phase 4 of the trial: the verdict."""

    model_config = ConfigDict(extra="forbid")

    verdict: Verdict
