"""Consistency rules across Toulmin components, as pure functions.

The schemas in `argumentation.toulmin` check each component on its own (plus the two
checks that need only one component: qualifier degree vs confidence, verdict
reasoning vs status). The rules here span components of different trial phases, which
no single model sees, and they turn a failed validation into a reply a model can act
on.

Each rule returns `RuleViolation`s rather than raising, so a caller can collect all of
them and send every message back at once. Rule codes (`RuleCode`) are stable: store
them, branch on them; the messages are for people and models and may be reworded.

The two single-component checks are also exposed here with primitive arguments
(`qualifier_range_violations`, `reasoning_contradiction_violations`) for raw dicts
that failed schema validation elsewhere. They check only their own concern: when an
argument is itself unusable (an unknown degree, a non-integer percentage) they return
no violation, because that field's own schema error already says what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeVar

from pydantic import ValidationError

from argumentation.toulmin import (
    Backing,
    Qualifier,
    QualifierForce,
    Rebuttal,
    StrengthLevel,
    Verdict,
    VerdictStatus,
    Warrant,
    qualifier_range_error,
    verdict_contradiction_error,
)

__all__ = [
    "DEFAULT_ERROR",
    "LOW_CONFIDENCE_BELOW",
    "TERMINATING_STRENGTHS",
    "BreakerResult",
    "RuleCode",
    "RuleViolation",
    "circuit_breaker",
    "error_response",
    "low_confidence_violations",
    "qualifier_range_violations",
    "reasoning_contradiction_violations",
    "rebuttal_strength_violations",
    "verdict_violations",
]

_E = TypeVar("_E", bound=StrEnum)

# A warrant or backing this weak cannot carry the claim, so the trial stops there.
TERMINATING_STRENGTHS = frozenset({StrengthLevel.WEAK, StrengthLevel.IRRELEVANT})

# Below this confidence the claim cannot be sustained: the bottom of "possibly".
LOW_CONFIDENCE_BELOW = 30


class RuleCode(StrEnum):
    """Stable identifiers of the rules, safe to store and compare with plain strings."""

    REBUTTAL_ABSOLUTE_REQUIRES_OVERRULED = "rebuttal_absolute_requires_overruled"
    LOW_CONFIDENCE_REQUIRES_OVERRULED_OR_REMANDED = "low_confidence_requires_overruled_or_remanded"
    QUALIFIER_CONFIDENCE_OUT_OF_RANGE = "qualifier_confidence_out_of_range"
    VERDICT_REASONING_CONTRADICTS_STATUS = "verdict_reasoning_contradicts_status"


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """One broken rule: a stable `rule` code and a `message` fit to send to a model."""

    rule: RuleCode
    message: str


@dataclass(frozen=True, slots=True)
class BreakerResult:
    """Whether the trial chain stops after phase 2, and because of which component."""

    terminated: bool
    reason: str | None = None
    component: Literal["warrant", "backing"] | None = None


def circuit_breaker(*, warrant: Warrant, backing: Backing) -> BreakerResult:
    """Stop the trial when the warrant or its backing is weak or irrelevant.

    The warrant is checked first: the backing only matters as support for the
    warrant, so when both fail the warrant is the cause worth reporting.
    """
    for component, strength in (("warrant", warrant.strength), ("backing", backing.strength)):
        if strength in TERMINATING_STRENGTHS:
            return BreakerResult(
                terminated=True,
                reason=(
                    f"The {component} is {strength.value}: a {strength.value} {component} "
                    "cannot carry the claim, so the trial stops here."
                ),
                component=component,
            )
    return BreakerResult(terminated=False)


def rebuttal_strength_violations(
    *, status: VerdictStatus | str, rebuttal_strength: StrengthLevel | str
) -> list[RuleViolation]:
    """An absolute rebuttal defeats the claim outright, so only `overruled` fits it."""
    status, strength = _status(status), _strength(rebuttal_strength)
    if strength is StrengthLevel.ABSOLUTE and status not in (None, VerdictStatus.OVERRULED):
        return [
            RuleViolation(
                rule=RuleCode.REBUTTAL_ABSOLUTE_REQUIRES_OVERRULED,
                message=(
                    f"The rebuttal is absolute, which defeats the claim, but the verdict "
                    f"is '{status.value}'; it must be 'overruled'."
                ),
            )
        ]
    return []


def low_confidence_violations(
    *, status: VerdictStatus | str, confidence_pct: int
) -> list[RuleViolation]:
    """A claim held with under 30% confidence cannot be sustained."""
    status = _status(status)
    if (
        _is_int(confidence_pct)
        and confidence_pct < LOW_CONFIDENCE_BELOW
        and status is VerdictStatus.SUSTAINED
    ):
        return [
            RuleViolation(
                rule=RuleCode.LOW_CONFIDENCE_REQUIRES_OVERRULED_OR_REMANDED,
                message=(
                    f"The qualifier's confidence is {confidence_pct}%, below "
                    f"{LOW_CONFIDENCE_BELOW}%, so the claim cannot be sustained; "
                    "the verdict must be 'overruled' or 'remanded'."
                ),
            )
        ]
    return []


def verdict_violations(
    *, verdict: Verdict, rebuttal: Rebuttal, qualifier: Qualifier
) -> list[RuleViolation]:
    """Every way the verdict disagrees with the rebuttal and qualifier before it.

    Only the cross-phase rules run here; the verdict's own reasoning-vs-status and the
    qualifier's own range check were enforced when those models were validated.
    """
    return [
        *rebuttal_strength_violations(status=verdict.status, rebuttal_strength=rebuttal.strength),
        *low_confidence_violations(status=verdict.status, confidence_pct=qualifier.confidence_pct),
    ]


def qualifier_range_violations(
    *, degree: QualifierForce | str, confidence_pct: int
) -> list[RuleViolation]:
    """The `Qualifier` schema's degree-vs-confidence check, on raw values.

    The message is the schema's own wording, so a model hears the same correction
    whichever way the problem was found.
    """
    degree = _enum(QualifierForce, degree)
    if degree is None or not _is_int(confidence_pct):
        return []
    error = qualifier_range_error(degree=degree, confidence_pct=confidence_pct)
    return (
        [RuleViolation(rule=RuleCode.QUALIFIER_CONFIDENCE_OUT_OF_RANGE, message=error)]
        if error
        else []
    )


def reasoning_contradiction_violations(
    *, status: VerdictStatus | str, reasoning: str
) -> list[RuleViolation]:
    """The `Verdict` schema's reasoning-vs-status check, on raw values."""
    status = _status(status)
    if status is None or not isinstance(reasoning, str):
        return []
    error = verdict_contradiction_error(status=status, reasoning=reasoning)
    return (
        [RuleViolation(rule=RuleCode.VERDICT_REASONING_CONTRADICTS_STATUS, message=error)]
        if error
        else []
    )


DEFAULT_ERROR = "The output does not match the required schema"


def error_response(exc: ValidationError, *, error: str = DEFAULT_ERROR) -> dict[str, object]:
    """A reply for a model (or a client) whose output failed validation.

    Returns `{"error": str, "missing": list[str]}`. `missing` holds the dotted path of
    every field that is missing *or* invalid (including forbidden extra keys), in the
    order pydantic reports them, without duplicates; list positions appear as numbers
    ("data.facts.0"). `error` is the given headline followed by each problem as
    "path: message", so the one string says both where and what. A failure of the
    input as a whole (not an object, not JSON) has no field path: it appears in
    `error` only.
    """
    missing: list[str] = []
    problems: list[str] = []
    for detail in exc.errors(include_url=False):
        path = ".".join(str(part) for part in detail["loc"])
        message = detail["msg"].removeprefix("Value error, ")
        problems.append(f"{path}: {message}" if path else message)
        if path and path not in missing:
            missing.append(path)
    return {"error": f"{error}: " + "; ".join(problems), "missing": missing}


def _enum(kind: type[_E], value: object) -> _E | None:
    try:
        return kind(value)
    except (ValueError, TypeError):
        return None


def _status(value: object) -> VerdictStatus | None:
    return _enum(VerdictStatus, value)


def _strength(value: object) -> StrengthLevel | None:
    return _enum(StrengthLevel, value)


def _is_int(value: object) -> bool:
    # bool is an int subclass; the schema refuses it, so the rules do too.
    return isinstance(value, int) and not isinstance(value, bool)
