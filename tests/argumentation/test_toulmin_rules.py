"""The Toulmin consistency rules: the circuit breaker, verdict constraints, error replies."""

from __future__ import annotations

import dataclasses

import pytest
from pydantic import ValidationError

from argumentation.toulmin import (
    QUALIFIER_RANGES,
    Backing,
    Phase1Output,
    Phase3Output,
    Qualifier,
    QualifierForce,
    Rebuttal,
    StrengthLevel,
    Verdict,
    VerdictStatus,
    Warrant,
)
from argumentation.toulmin_rules import (
    DEFAULT_ERROR,
    BreakerResult,
    RuleCode,
    RuleViolation,
    circuit_breaker,
    error_response,
    low_confidence_violations,
    qualifier_range_violations,
    reasoning_contradiction_violations,
    rebuttal_strength_violations,
    verdict_violations,
)

CITATION = {"source": "WHO", "reference": "Report 2023, p. 4"}
REASONING = {
    VerdictStatus.SUSTAINED: "The data support the claim and the warrant holds across studies.",
    VerdictStatus.OVERRULED: "The rebuttal defeats the claim in every case that was examined.",
    VerdictStatus.REMANDED: "The argument needs a narrower scope before it can be judged again.",
}


def warrant(strength: StrengthLevel) -> Warrant:
    return Warrant(
        principle="Higher prices reduce demand for goods",
        logic_type="inductive",
        strength=strength,
    )


def backing(strength: StrengthLevel) -> Backing:
    return Backing(authority="Price elasticity studies", citations=[CITATION], strength=strength)


def rebuttal(strength: StrengthLevel) -> Rebuttal:
    return Rebuttal(exceptions=["Smuggling"], counterexamples=[], strength=strength)


def qualifier(confidence_pct: int) -> Qualifier:
    degree = next(d for d, (lo, hi) in QUALIFIER_RANGES.items() if lo <= confidence_pct <= hi)
    return Qualifier(degree=degree, confidence_pct=confidence_pct, rationale="Partial evidence")


def verdict(status: VerdictStatus) -> Verdict:
    return Verdict(status=status, reasoning=REASONING[status], final_statement="So it is decided.")


# --- circuit breaker --------------------------------------------------------------------

STOPS = {
    StrengthLevel.ABSOLUTE: False,
    StrengthLevel.STRONG: False,
    StrengthLevel.WEAK: True,
    StrengthLevel.IRRELEVANT: True,
}


@pytest.mark.parametrize("strength", list(StrengthLevel))
def test_it_breaks_on_a_weak_or_irrelevant_warrant(strength: StrengthLevel) -> None:
    result = circuit_breaker(warrant=warrant(strength), backing=backing(StrengthLevel.STRONG))
    assert result.terminated is STOPS[strength]
    if STOPS[strength]:
        assert result.component == "warrant"
        assert "warrant" in result.reason and strength.value in result.reason
    else:
        assert result == BreakerResult(terminated=False, reason=None, component=None)


@pytest.mark.parametrize("strength", list(StrengthLevel))
def test_it_breaks_on_a_weak_or_irrelevant_backing(strength: StrengthLevel) -> None:
    result = circuit_breaker(warrant=warrant(StrengthLevel.ABSOLUTE), backing=backing(strength))
    assert result.terminated is STOPS[strength]
    if STOPS[strength]:
        assert result.component == "backing"
        assert "backing" in result.reason and strength.value in result.reason
    else:
        assert result == BreakerResult(terminated=False, reason=None, component=None)


def test_it_blames_the_warrant_when_both_are_weak() -> None:
    result = circuit_breaker(
        warrant=warrant(StrengthLevel.IRRELEVANT), backing=backing(StrengthLevel.WEAK)
    )
    assert (result.terminated, result.component) == (True, "warrant")
    assert "irrelevant" in result.reason


def test_it_returns_immutable_results() -> None:
    result = circuit_breaker(
        warrant=warrant(StrengthLevel.WEAK), backing=backing(StrengthLevel.WEAK)
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.terminated = False  # type: ignore[misc]


# --- verdict constraints ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rebuttal_strength", "status", "broken"),
    [
        (StrengthLevel.ABSOLUTE, VerdictStatus.OVERRULED, False),
        (StrengthLevel.ABSOLUTE, VerdictStatus.SUSTAINED, True),
        (StrengthLevel.ABSOLUTE, VerdictStatus.REMANDED, True),
        (StrengthLevel.STRONG, VerdictStatus.SUSTAINED, False),
        (StrengthLevel.STRONG, VerdictStatus.REMANDED, False),
        (StrengthLevel.STRONG, VerdictStatus.OVERRULED, False),
    ],
)
def test_it_requires_overruled_after_an_absolute_rebuttal(
    rebuttal_strength: StrengthLevel, status: VerdictStatus, broken: bool
) -> None:
    violations = verdict_violations(
        verdict=verdict(status), rebuttal=rebuttal(rebuttal_strength), qualifier=qualifier(80)
    )
    assert [v.rule for v in violations] == (
        [RuleCode.REBUTTAL_ABSOLUTE_REQUIRES_OVERRULED] if broken else []
    )
    if broken:
        assert "overruled" in violations[0].message and status.value in violations[0].message


@pytest.mark.parametrize(
    ("confidence", "status", "broken"),
    [
        (29, VerdictStatus.SUSTAINED, True),
        (0, VerdictStatus.SUSTAINED, True),
        (30, VerdictStatus.SUSTAINED, False),
        (29, VerdictStatus.OVERRULED, False),
        (29, VerdictStatus.REMANDED, False),
    ],
)
def test_it_refuses_to_sustain_below_30_percent(
    confidence: int, status: VerdictStatus, broken: bool
) -> None:
    violations = verdict_violations(
        verdict=verdict(status),
        rebuttal=rebuttal(StrengthLevel.WEAK),
        qualifier=qualifier(confidence),
    )
    assert [v.rule for v in violations] == (
        [RuleCode.LOW_CONFIDENCE_REQUIRES_OVERRULED_OR_REMANDED] if broken else []
    )
    if broken:
        assert str(confidence) in violations[0].message


def test_it_reports_both_verdict_violations_at_once() -> None:
    violations = verdict_violations(
        verdict=verdict(VerdictStatus.SUSTAINED),
        rebuttal=rebuttal(StrengthLevel.ABSOLUTE),
        qualifier=qualifier(10),
    )
    assert [v.rule for v in violations] == [
        RuleCode.REBUTTAL_ABSOLUTE_REQUIRES_OVERRULED,
        RuleCode.LOW_CONFIDENCE_REQUIRES_OVERRULED_OR_REMANDED,
    ]


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        (
            {"status": "sustained", "rebuttal_strength": "absolute"},
            RuleCode.REBUTTAL_ABSOLUTE_REQUIRES_OVERRULED,
        ),
        (
            {"status": "sustained", "confidence_pct": 29},
            RuleCode.LOW_CONFIDENCE_REQUIRES_OVERRULED_OR_REMANDED,
        ),
    ],
)
def test_it_checks_cross_phase_rules_on_raw_strings(kwargs: dict, rule: RuleCode) -> None:
    check = (
        rebuttal_strength_violations if "rebuttal_strength" in kwargs else low_confidence_violations
    )
    assert [v.rule for v in check(**kwargs)] == [rule]
    assert rule == rule.value  # codes compare equal to the plain strings stored elsewhere


@pytest.mark.parametrize(
    "check",
    [
        lambda: rebuttal_strength_violations(status="maybe", rebuttal_strength="absolute"),
        lambda: rebuttal_strength_violations(status="sustained", rebuttal_strength="total"),
        lambda: low_confidence_violations(status="sustained", confidence_pct=True),
        lambda: low_confidence_violations(status="sustained", confidence_pct="5"),
        lambda: low_confidence_violations(status="unknown", confidence_pct=5),
        lambda: qualifier_range_violations(degree="surely", confidence_pct=95),
        lambda: qualifier_range_violations(degree="certainly", confidence_pct=95.0),
        lambda: qualifier_range_violations(degree="certainly", confidence_pct=False),
        lambda: reasoning_contradiction_violations(status="sustained", reasoning=None),
        lambda: reasoning_contradiction_violations(status=["sustained"], reasoning="It fails."),
    ],
)
def test_it_leaves_unusable_raw_values_to_the_schema(check) -> None:
    assert check() == []


# --- single-component rules on raw values, in agreement with the schema ------------------


@pytest.mark.parametrize("degree", list(QualifierForce))
@pytest.mark.parametrize("pct", [-1, 0, 29, 30, 49, 50, 69, 70, 89, 90, 100, 101])
def test_it_checks_qualifier_ranges_like_the_schema(degree: QualifierForce, pct: int) -> None:
    violations = qualifier_range_violations(degree=degree.value, confidence_pct=pct)
    try:
        Qualifier(degree=degree, confidence_pct=pct, rationale="Partial evidence")
    except ValidationError as exc:
        low, high = QUALIFIER_RANGES[degree]
        assert not low <= pct <= high
        assert [v.rule for v in violations] == [RuleCode.QUALIFIER_CONFIDENCE_OUT_OF_RANGE]
        assert f"{low}-{high}" in violations[0].message
        if 0 <= pct <= 100:  # inside 0..100 the schema's message is the rule's message
            assert violations[0].message in str(exc)
    else:
        assert violations == []


def test_it_tells_which_degree_a_confidence_belongs_to() -> None:
    [violation] = qualifier_range_violations(degree="certainly", confidence_pct=89)
    assert "presumably" in violation.message


@pytest.mark.parametrize(
    ("status", "reasoning", "broken"),
    [
        ("sustained", "The objection fails.", True),
        ("sustained", "The FAILS word in caps.", True),
        ("sustained", "A failsafe design.", False),
        ("sustained", "It succeeds.", False),
        ("overruled", "The rebuttal succeeds.", True),
        ("overruled", "Nothing succeeded.", False),
        ("remanded", "It fails and succeeds.", False),
        ("sustained", "La objeción falla.", True),
        ("sustained", "La réplica FRACASA.", True),
        ("sustained", "Las objeciones fallaron.", False),
        ("sustained", "La objeción prospera.", False),
        ("overruled", "La refutación prospera.", True),
        ("overruled", "La refutación triunfa.", True),
        ("overruled", "Una economía próspera.", False),
        ("remanded", "Falla aquí y prospera allá.", False),
    ],
)
def test_it_checks_reasoning_against_the_status(status: str, reasoning: str, broken: bool) -> None:
    violations = reasoning_contradiction_violations(status=status, reasoning=reasoning)
    assert [v.rule for v in violations] == (
        [RuleCode.VERDICT_REASONING_CONTRADICTS_STATUS] if broken else []
    )


def test_it_makes_violations_immutable_values() -> None:
    first = RuleViolation(rule=RuleCode.QUALIFIER_CONFIDENCE_OUT_OF_RANGE, message="m")
    assert first == RuleViolation(rule=RuleCode.QUALIFIER_CONFIDENCE_OUT_OF_RANGE, message="m")
    assert dataclasses.asdict(first) == {
        "rule": "qualifier_confidence_out_of_range",
        "message": "m",
    }


# --- error response ---------------------------------------------------------------------


def validation_error(model, data) -> ValidationError:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(data)
    return exc.value


def test_it_lists_a_missing_field_by_its_path() -> None:
    exc = validation_error(
        Phase1Output,
        {
            "data": {"facts": ["Smoking fell"], "citations": [CITATION]},
            "claim": {"statement": "Taxes reduce smoking", "scope": "general"},
        },
    )
    response = error_response(exc)
    assert response == {
        "error": f"{DEFAULT_ERROR}: data.evidence_type: Field required",
        "missing": ["data.evidence_type"],
    }


def test_it_lists_nested_invalid_fields_with_their_messages() -> None:
    exc = validation_error(
        Phase3Output,
        {
            "rebuttal": {"exceptions": ["Smuggling", " "], "counterexamples": [], "strength": "x"},
            "qualifier": {"degree": "certainly", "confidence_pct": 89, "rationale": "Partial data"},
            "extra": 1,
        },
    )
    response = error_response(exc, error="Phase 3 output rejected")
    assert response["missing"] == [
        "rebuttal.exceptions.1",
        "rebuttal.strength",
        "qualifier.confidence_pct",
        "extra",
    ]
    assert response["error"].startswith("Phase 3 output rejected: rebuttal.exceptions.1: ")
    assert (
        "qualifier.confidence_pct: confidence_pct 89 is outside the 90-100 range"
        in (response["error"])
    )
    assert "Value error" not in response["error"]
    assert "extra: Extra inputs are not permitted" in response["error"]


def test_it_lists_a_component_of_the_wrong_type_by_its_name() -> None:
    exc = validation_error(Phase1Output, {"data": "not an object", "claim": 5})
    assert error_response(exc)["missing"] == ["data", "claim"]


def test_it_lists_each_path_once() -> None:
    # Two problems at one location (as unions produce) are one path with two messages.
    exc = ValidationError.from_exception_data(
        "Claim",
        [
            {"type": "missing", "loc": ("claim", "scope"), "input": {}},
            {"type": "string_type", "loc": ("claim", "scope"), "input": 5},
        ],
    )
    response = error_response(exc)
    assert response["missing"] == ["claim.scope"]
    assert response["error"].count("claim.scope: ") == 2


def test_it_keeps_whole_input_failures_in_the_error_only() -> None:
    with pytest.raises(ValidationError) as exc:
        Phase1Output.model_validate_json("{not json")
    response = error_response(exc.value, error="Bad reply")
    assert response["missing"] == []
    assert response["error"].startswith("Bad reply: Invalid JSON")
