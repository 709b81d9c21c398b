"""Checking a phase's output: JSON, schema, rules, and the codes a model is told."""

from __future__ import annotations

import json

from argumentation.toulmin import Qualifier, Rebuttal
from tests.trials import phase_data
from trials.checks import check_output
from trials.phases import get_phase


def _context(**phase3_knobs):
    out = phase_data.phase3(**phase3_knobs)
    return {
        "rebuttal": Rebuttal.model_validate(out["rebuttal"]),
        "qualifier": Qualifier.model_validate(out["qualifier"]),
    }


def test_it_accepts_a_valid_output_of_each_phase():
    outputs = [phase_data.phase1(), phase_data.phase2(), phase_data.phase3(), phase_data.phase4()]
    for number, output in enumerate(outputs, start=1):
        check = check_output(phase=get_phase(number), text=json.dumps(output), context=_context())
        assert check.ok, check.response()
        assert check.output.model_dump(mode="json") == output


def test_it_names_invalid_json():
    check = check_output(phase=get_phase(1), text="{oops")

    assert not check.ok
    assert check.rules == ["invalid_json"]


def test_it_reports_schema_errors_with_their_paths():
    output = phase_data.phase1()
    del output["data"]["evidence_type"]
    output["claim"]["statement"] = "Is this a claim?"

    check = check_output(phase=get_phase(1), text=json.dumps(output))

    assert check.rules == ["schema"]
    assert check.missing == ("data.evidence_type", "claim.statement")
    assert "must not end with '?'" in check.response()["error"]


def test_it_names_the_rule_instead_of_repeating_its_schema_error():
    output = phase_data.phase3(degree="certainly", confidence_pct=40)

    check = check_output(phase=get_phase(3), text=json.dumps(output))

    assert check.rules == ["qualifier_confidence_out_of_range"]
    assert check.missing == ("qualifier.confidence_pct",)
    assert check.output is None


def test_it_enforces_the_cross_phase_verdict_rules_from_context():
    sustained = json.dumps(phase_data.phase4(status="sustained"))

    absolute = check_output(
        phase=get_phase(4), text=sustained, context=_context(rebuttal_strength="absolute")
    )
    doubtful = check_output(
        phase=get_phase(4),
        text=sustained,
        context=_context(degree="apparently", confidence_pct=20),
    )

    assert absolute.rules == ["rebuttal_absolute_requires_overruled"]
    assert doubtful.rules == ["low_confidence_requires_overruled_or_remanded"]
    assert absolute.missing == ("verdict.status",)


def test_it_names_a_reasoning_that_contradicts_the_status():
    output = phase_data.phase4(
        status="overruled", reasoning="The claim succeeds on every count that matters here."
    )

    check = check_output(phase=get_phase(4), text=json.dumps(output), context=_context())

    assert check.rules == ["verdict_reasoning_contradicts_status"]
    assert check.missing == ("verdict.reasoning",)


def test_it_holds_a_spanish_reasoning_to_the_same_rule():
    # The model writes in the student's language; a rule that only read English
    # would let this sustained verdict say the claim fails.
    contradicting = phase_data.phase4(
        status="sustained",
        reasoning="Tras sopesar los datos y la garantía, la afirmación falla en lo esencial.",
    )
    consistent = phase_data.phase4(
        status="sustained",
        reasoning="Tras sopesar los datos y la garantía, la afirmación se sostiene en lo esencial.",
    )

    rejected = check_output(phase=get_phase(4), text=json.dumps(contradicting), context=_context())
    accepted = check_output(phase=get_phase(4), text=json.dumps(consistent), context=_context())

    assert rejected.rules == ["verdict_reasoning_contradicts_status"]
    assert "'falla'" in rejected.response()["error"]
    assert accepted.ok, accepted.response()
