"""The phase prompts and their inputs, shared by the chain and the MCP tools."""

from __future__ import annotations

import json

import pytest

from argumentation.toulmin import QUALIFIER_RANGES
from tests.trials import phase_data
from trials.prompts import (
    PhaseInputError,
    build_prompt,
    initiate_toulmin_sequence,
    inject_logic_bridge,
    render_verdict,
    stress_test_argument,
)

QUERY = "Should cities replace car lanes with bus lanes?"


def _json(phase_output: dict, key: str) -> str:
    return json.dumps(phase_output[key])


def _inputs(upto: int) -> dict[str, str]:
    outputs = [phase_data.phase1(), phase_data.phase2(), phase_data.phase3()][:upto]
    return {key: json.dumps(value) for out in outputs for key, value in out.items()}


def test_each_phase_prompt_carries_the_query_and_the_earlier_components():
    prompts = [
        initiate_toulmin_sequence(query=QUERY),
        inject_logic_bridge(query=QUERY, **_inputs(1)),
        stress_test_argument(query=QUERY, **_inputs(2)),
        render_verdict(query=QUERY, **_inputs(3)),
    ]

    for number, prompt in enumerate(prompts, start=1):
        assert prompt.phase == number
        assert f"<query>\n{QUERY}\n</query>" in prompt.user
        assert f"Phase {number} of 4" in prompt.system
        assert prompt.text == f"{prompt.system}\n\n{prompt.user}"
    assert "<warrant>" in prompts[2].user and "<qualifier>" not in prompts[2].user
    assert '"Cities without frequent bus service."' in prompts[3].user


def test_the_prompts_state_the_rules_from_the_constants():
    verdict = render_verdict(query=QUERY, **_inputs(3)).system
    qualifier = stress_test_argument(query=QUERY, **_inputs(2)).system

    assert "below 30 requires overruled or remanded" in verdict
    assert "'fails'" in verdict and "'succeeds'" in verdict
    # The model answers in the student's language: it is told the Spanish words too.
    assert "'falla'" in verdict and "'prospera'" in verdict
    for degree, (low, high) in QUALIFIER_RANGES.items():
        assert f"{degree.value} {low}-{high}" in qualifier


def test_equal_inputs_make_equal_prompts_whatever_their_json_layout():
    compact = inject_logic_bridge(query=QUERY, **_inputs(1))
    spaced = inject_logic_bridge(
        query=QUERY,
        data=json.dumps(phase_data.phase1()["data"], indent=4),
        claim=json.dumps(phase_data.phase1()["claim"], indent=4),
    )

    assert compact == spaced


def test_it_accepts_a_component_wrapped_in_its_key():
    wrapped = json.dumps({"data": phase_data.phase1()["data"]})

    prompt = inject_logic_bridge(query=QUERY, data=wrapped, claim=_inputs(1)["claim"])

    assert prompt == inject_logic_bridge(query=QUERY, **_inputs(1))


def test_it_lists_every_missing_or_invalid_input_at_once():
    inputs = _inputs(2)
    inputs["data"] = "{"
    inputs["warrant"] = json.dumps({"principle": "too short", "logic_type": "deductive"})
    del inputs["backing"]

    with pytest.raises(PhaseInputError) as caught:
        build_prompt(phase=3, query=" ", components=inputs)

    response = caught.value.response
    assert set(response) == {"error", "missing"}
    assert response["missing"] == [
        "query",
        "data",
        "warrant.principle",
        "warrant.strength",
        "backing",
    ]
    assert "not valid JSON" in response["error"]


def test_it_refuses_inputs_the_circuit_breaker_stops():
    inputs = _inputs(2)
    inputs["backing"] = json.dumps(phase_data.phase2(backing_strength="weak")["backing"])

    with pytest.raises(PhaseInputError) as caught:
        stress_test_argument(query=QUERY, **inputs)

    assert caught.value.response["missing"] == ["backing.strength"]
    assert "The backing is weak" in caught.value.response["error"]


def test_it_refuses_an_unknown_phase():
    with pytest.raises(PhaseInputError) as caught:
        build_prompt(phase=5, query=QUERY, components={})

    assert caught.value.response["missing"] == ["phase"]
