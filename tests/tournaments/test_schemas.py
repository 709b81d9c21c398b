"""The tournament reply shapes: confidence arithmetic, caps, and the no-yes-man rule."""

import pytest
from pydantic import ValidationError

from tournaments.schemas import (
    MAX_ITEMS,
    MAX_TEXT_CHARS,
    ChallengeResponse,
    ConfidenceFactors,
    DefenceResponse,
    ModelResponse,
    RecommendationDraft,
    yes_man_problem,
)

FACTORS = {"evidence_quality": 0.9, "solution_fit": 0.5, "expertise": 0.25}


def test_it_weights_confidence_04_04_02():
    # 0.4 * 0.9 + 0.4 * 0.5 + 0.2 * 0.25 = 0.36 + 0.2 + 0.05
    assert ConfidenceFactors(**FACTORS).overall() == pytest.approx(0.61)
    assert ConfidenceFactors(evidence_quality=1, solution_fit=1, expertise=1).overall() == (
        pytest.approx(1)
    )


def test_it_refuses_confidence_outside_0_to_1():
    with pytest.raises(ValidationError):
        ConfidenceFactors(evidence_quality=1.2, solution_fit=0.5, expertise=0.5)


def test_it_wraps_the_draft_with_the_call_metadata():
    draft = RecommendationDraft(
        recommendation="PostgreSQL.",
        confidence=0.8,
        confidence_factors=FACTORS,
        trade_offs={"PostgreSQL": "operations work", "SQLite": "one writer"},
    )
    response = ModelResponse(
        **draft.model_dump(),
        model_id="claude-sonnet-5-5",
        input_tokens=120,
        output_tokens=300,
        response_seconds=1.5,
    )
    assert response.confidence_factors.overall() == pytest.approx(0.61)
    # The model is never asked for the metadata.
    assert "model_id" not in RecommendationDraft.model_json_schema()["properties"]


def test_it_caps_every_string_and_list():
    with pytest.raises(ValidationError):
        RecommendationDraft(
            recommendation="x" * (MAX_TEXT_CHARS + 1), confidence=0.5, confidence_factors=FACTORS
        )
    with pytest.raises(ValidationError):
        RecommendationDraft(
            recommendation="x",
            confidence=0.5,
            confidence_factors=FACTORS,
            key_facts=["f"] * (MAX_ITEMS + 1),
        )
    with pytest.raises(ValidationError):
        RecommendationDraft(
            recommendation="x",
            confidence=0.5,
            confidence_factors=FACTORS,
            trade_offs={str(i): "t" for i in range(MAX_ITEMS + 1)},
        )


def _assert_capped(schema: dict, defs: dict, where: str) -> None:
    """Walk a JSON schema: every string, array and open object has a size cap."""
    if "$ref" in schema:
        return _assert_capped(defs[schema["$ref"].split("/")[-1]], defs, where)
    for option in schema.get("anyOf", []):
        _assert_capped(option, defs, where)
    kind = schema.get("type")
    if kind == "string" and "enum" not in schema:  # an enum is bounded by its values
        assert "maxLength" in schema, where
    elif kind == "array":
        assert "maxItems" in schema, where
        _assert_capped(schema["items"], defs, where + "[]")
    elif kind == "object":
        if "additionalProperties" in schema:
            assert "maxProperties" in schema, where
            _assert_capped(schema["additionalProperties"], defs, where + "{}")
        for name, prop in schema.get("properties", {}).items():
            _assert_capped(prop, defs, f"{where}.{name}")


@pytest.mark.parametrize(
    "shape", [RecommendationDraft, ModelResponse, ChallengeResponse, DefenceResponse]
)
def test_it_leaves_no_string_or_list_uncapped(shape):
    schema = shape.model_json_schema()
    _assert_capped(schema, schema.get("$defs", {}), shape.__name__)


def _challenge(weaknesses: int) -> ChallengeResponse:
    return ChallengeResponse(
        strengths=["Mature."],
        critical_weaknesses=[
            {"weakness": f"Weakness {i}", "evidence": "A benchmark."} for i in range(weaknesses)
        ],
    )


@pytest.mark.parametrize("weaknesses", [0, 1])
def test_it_sends_back_a_challenge_with_fewer_than_two_weaknesses(weaknesses):
    message = yes_man_problem(_challenge(weaknesses))
    assert message == (
        "No yes-man: a challenge must name at least 2 critical weaknesses, each with its "
        f"evidence, and yours named {weaknesses}. Challenge the recommendation brutally "
        "and honestly."
    )


@pytest.mark.parametrize("weaknesses", [2, 5])
def test_it_accepts_a_challenge_with_two_weaknesses_or_more(weaknesses):
    assert yes_man_problem(_challenge(weaknesses)) is None


def test_it_parses_a_defence_that_updates():
    defence = DefenceResponse.model_validate(
        {
            "responses": [{"challenge": "Cost", "response": "Replicas are cheap."}],
            "stance": "updating",
            "recommendation": "PostgreSQL with a read replica.",
            "what_changed": ["Added a replica."],
            "updated_confidence_factors": FACTORS,
        }
    )
    assert defence.stance == "updating"
    with pytest.raises(ValidationError):
        DefenceResponse.model_validate({**defence.model_dump(), "stance": "wavering"})
