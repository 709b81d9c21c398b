"""Check one phase's output: is it JSON, does it fit the schema, does it keep the rules.

Used by the chain on every model reply (to decide whether to repair) and by
the MCP tool `check_phase`, so both hold a reply to the same standard.

The rules run on the raw JSON *before* schema validation, through the
raw-value rule functions of `argumentation.toulmin_rules`. That way a reply
whose qualifier range or reasoning breaks a rule is told the rule's stable
code (`qualifier_confidence_out_of_range`, ...), not only the schema's
message at that path, and the schema error at a path a rule already
explained is not repeated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from argumentation.toulmin import Qualifier, Rebuttal
from argumentation.toulmin_rules import (
    RuleViolation,
    error_response,
    low_confidence_violations,
    qualifier_range_violations,
    reasoning_contradiction_violations,
    rebuttal_strength_violations,
)
from trials.phases import Phase

__all__ = ["INVALID_JSON", "SCHEMA", "PhaseCheck", "Problem", "check_output"]

# Problem codes beside the RuleCode values of argumentation.toulmin_rules.
INVALID_JSON = "invalid_json"
SCHEMA = "schema"


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason an output is rejected: a stable `rule` code and a message for the model."""

    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class PhaseCheck:
    """The validated output, or what is wrong with it."""

    output: BaseModel | None
    problems: tuple[Problem, ...] = ()
    missing: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.output is not None and not self.problems

    @property
    def rules(self) -> list[str]:
        return list(dict.fromkeys(problem.rule for problem in self.problems))

    def response(self) -> dict[str, object]:
        """`{"error", "missing", "rules"}`: the error format, plus the broken rule codes."""
        error = "; ".join(f"{p.rule}: {p.message}" for p in self.problems)
        return {"error": error, "missing": list(self.missing), "rules": self.rules}


def _get(obj: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


# Which output path each rule speaks about, so its schema twin is not repeated.
_RULE_PATHS = {
    "qualifier_confidence_out_of_range": "qualifier.confidence_pct",
    "verdict_reasoning_contradicts_status": "verdict.reasoning",
    "rebuttal_absolute_requires_overruled": "verdict.status",
    "low_confidence_requires_overruled_or_remanded": "verdict.status",
}


def _rule_violations(
    *, phase: Phase, raw: object, rebuttal: Rebuttal | None, qualifier: Qualifier | None
) -> list[RuleViolation]:
    if phase.number == 3:
        return qualifier_range_violations(
            degree=_get(raw, "qualifier", "degree"),
            confidence_pct=_get(raw, "qualifier", "confidence_pct"),
        )
    if phase.number != 4:
        return []
    status = _get(raw, "verdict", "status")
    found = reasoning_contradiction_violations(
        status=status, reasoning=_get(raw, "verdict", "reasoning")
    )
    if rebuttal is not None:
        found += rebuttal_strength_violations(status=status, rebuttal_strength=rebuttal.strength)
    if qualifier is not None:
        found += low_confidence_violations(status=status, confidence_pct=qualifier.confidence_pct)
    return found


def check_output(
    *, phase: Phase, text: str | None, context: Mapping[str, BaseModel] | None = None
) -> PhaseCheck:
    """Check `text` as the output of `phase`.

    Phase 4's cross-phase rules need the phase-3 `rebuttal` and `qualifier`
    in `context`; without them only its own reasoning-vs-status rule runs.
    """
    context = context or {}
    try:
        raw = json.loads(text or "")
    except (ValueError, RecursionError) as exc:  # a reply nested thousands deep, too
        detail = "the reply is empty" if not (text or "").strip() else f"{exc}"
        return PhaseCheck(
            output=None,
            problems=(Problem(INVALID_JSON, f"The reply is not valid JSON: {detail}."),),
        )
    rebuttal, qualifier = context.get("rebuttal"), context.get("qualifier")
    violations = _rule_violations(
        phase=phase,
        raw=raw,
        rebuttal=rebuttal if isinstance(rebuttal, Rebuttal) else None,
        qualifier=qualifier if isinstance(qualifier, Qualifier) else None,
    )
    problems = [Problem(str(v.rule), v.message) for v in violations]
    missing = list(dict.fromkeys(_RULE_PATHS[str(v.rule)] for v in violations))
    try:
        output = phase.output_model.model_validate(raw)
    except ValidationError as exc:
        output = None
        explained = set(missing)
        schema_problems = []
        for detail in exc.errors(include_url=False):
            path = ".".join(str(part) for part in detail["loc"])
            if path in explained:
                continue
            message = detail["msg"].removeprefix("Value error, ")
            schema_problems.append(f"{path}: {message}" if path else message)
        if schema_problems:
            problems.append(
                Problem(
                    SCHEMA, "The reply does not match the schema: " + "; ".join(schema_problems)
                )
            )
        missing += [p for p in error_response(exc)["missing"] if p not in explained]
    return PhaseCheck(output=output, problems=tuple(problems), missing=tuple(missing))
