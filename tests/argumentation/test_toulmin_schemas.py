"""The Toulmin schemas: each constraint at its boundary, and the phase outputs as SDK formats."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anthropic.lib._parse._response import parse_text
from anthropic.lib._parse._transform import to_json_output_format, transform_schema
from pydantic import BaseModel, ValidationError

from argumentation.toulmin import (
    CONTRADICTING_WORDS,
    QUALIFIER_RANGES,
    Backing,
    Citation,
    Claim,
    Data,
    EvidenceType,
    LogicType,
    Phase1Output,
    Phase2Output,
    Phase3Output,
    Phase4Output,
    Qualifier,
    QualifierForce,
    Rebuttal,
    StrengthLevel,
    Verdict,
    VerdictStatus,
    Warrant,
)

CITATION = {"source": "WHO", "reference": "Report 2023, p. 4"}
VALID: dict[type[BaseModel], dict[str, Any]] = {
    Citation: CITATION,
    Data: {
        "facts": ["Smoking rates fell by 20%"],
        "citations": [CITATION],
        "evidence_type": "statistical",
    },
    Claim: {"statement": "Taxes reduce smoking", "scope": "general"},
    Warrant: {
        "principle": "Higher prices reduce demand for goods",
        "logic_type": "inductive",
        "strength": "strong",
    },
    Backing: {
        "authority": "Price elasticity studies",
        "citations": [CITATION],
        "strength": "strong",
    },
    Rebuttal: {"exceptions": ["Smuggling"], "counterexamples": [], "strength": "weak"},
    Qualifier: {"degree": "probably", "confidence_pct": 60, "rationale": "Strong but partial data"},
    Verdict: {
        "status": "sustained",
        "reasoning": "The data support the claim and the warrant holds across studies.",
        "final_statement": "The claim stands.",
    },
}
PHASES: dict[type[BaseModel], dict[str, Any]] = {
    Phase1Output: {"data": VALID[Data], "claim": VALID[Claim]},
    Phase2Output: {"warrant": VALID[Warrant], "backing": VALID[Backing]},
    Phase3Output: {"rebuttal": VALID[Rebuttal], "qualifier": VALID[Qualifier]},
    Phase4Output: {"verdict": VALID[Verdict]},
}
ALL_MODELS = [*VALID, *PHASES]


def valid(model: type[BaseModel], **changes: Any) -> dict[str, Any]:
    return {**(VALID | PHASES)[model], **changes}


def error_types(exc: pytest.ExceptionInfo[ValidationError]) -> list[tuple[tuple, str]]:
    return [(e["loc"], e["type"]) for e in exc.value.errors()]


@pytest.mark.parametrize("model", ALL_MODELS, ids=lambda m: m.__name__)
def test_it_accepts_the_valid_example(model: type[BaseModel]) -> None:
    assert model.model_validate(valid(model)).model_dump(mode="json") == valid(model)


@pytest.mark.parametrize("model", ALL_MODELS, ids=lambda m: m.__name__)
def test_it_rejects_extra_fields(model: type[BaseModel]) -> None:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(valid(model, surprise="x"))
    assert error_types(exc) == [(("surprise",), "extra_forbidden")]


@pytest.mark.parametrize("model", ALL_MODELS, ids=lambda m: m.__name__)
def test_it_requires_every_field(model: type[BaseModel]) -> None:
    for field in model.model_fields:
        data = valid(model)
        del data[field]
        with pytest.raises(ValidationError) as exc:
            model.model_validate(data)
        assert error_types(exc) == [((field,), "missing")]


@pytest.mark.parametrize(
    ("model", "field", "minimum"),
    [
        (Citation, "source", 1),
        (Citation, "reference", 1),
        (Claim, "statement", 10),
        (Warrant, "principle", 20),
        (Backing, "authority", 10),
        (Qualifier, "rationale", 10),
        (Verdict, "reasoning", 50),
        (Verdict, "final_statement", 10),
    ],
)
def test_it_checks_string_lengths_at_the_boundary(
    model: type[BaseModel], field: str, minimum: int
) -> None:
    assert getattr(model.model_validate(valid(model, **{field: "a" * minimum})), field)
    with pytest.raises(ValidationError) as exc:
        model.model_validate(valid(model, **{field: "a" * (minimum - 1)}))
    assert error_types(exc) == [((field,), "string_too_short")]


@pytest.mark.parametrize(
    ("model", "field", "minimum"),
    [(Claim, "statement", 10), (Warrant, "principle", 20), (Verdict, "reasoning", 50)],
)
def test_it_strips_whitespace_before_counting(
    model: type[BaseModel], field: str, minimum: int
) -> None:
    with pytest.raises(ValidationError):
        model.model_validate(valid(model, **{field: " " * (minimum + 5)}))
    with pytest.raises(ValidationError):
        model.model_validate(valid(model, **{field: "  " + "a" * (minimum - 1) + "  "}))
    padded = model.model_validate(valid(model, **{field: "\n " + "a" * minimum + " \t"}))
    assert getattr(padded, field) == "a" * minimum


@pytest.mark.parametrize(
    "statement", ["Is smoking harmful?", "Is smoking harmful?   ", "Are taxes good??"]
)
def test_it_rejects_a_claim_that_is_a_question(statement: str) -> None:
    with pytest.raises(ValidationError, match="must not end with '\\?'"):
        Claim.model_validate(valid(Claim, statement=statement))


def test_it_accepts_a_question_mark_inside_a_claim() -> None:
    claim = Claim.model_validate(valid(Claim, statement="The question 'why?' is settled"))
    assert claim.statement == "The question 'why?' is settled"


@pytest.mark.parametrize("scope", ["universal", "general", "specific", "singular"])
def test_it_accepts_each_claim_scope(scope: str) -> None:
    assert Claim.model_validate(valid(Claim, scope=scope)).scope == scope


def test_it_rejects_an_unknown_claim_scope() -> None:
    with pytest.raises(ValidationError):
        Claim.model_validate(valid(Claim, scope="local"))


@pytest.mark.parametrize(
    ("model", "field"),
    [(Data, "facts"), (Data, "citations"), (Backing, "citations"), (Rebuttal, "exceptions")],
)
def test_it_rejects_empty_lists(model: type[BaseModel], field: str) -> None:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(valid(model, **{field: []}))
    assert error_types(exc) == [((field,), "too_short")]


def test_it_accepts_no_counterexamples() -> None:
    assert Rebuttal.model_validate(valid(Rebuttal, counterexamples=[])).counterexamples == []


@pytest.mark.parametrize(
    ("model", "field"),
    [(Data, "facts"), (Rebuttal, "exceptions"), (Rebuttal, "counterexamples")],
)
@pytest.mark.parametrize("blank", ["", "   "])
def test_it_rejects_blank_list_items(model: type[BaseModel], field: str, blank: str) -> None:
    with pytest.raises(ValidationError) as exc:
        model.model_validate(valid(model, **{field: ["A real item", blank]}))
    assert error_types(exc) == [((field, 1), "string_too_short")]


@pytest.mark.parametrize("blank", ["", "  "])
@pytest.mark.parametrize("field", ["source", "reference"])
def test_it_rejects_a_blank_citation_part(field: str, blank: str) -> None:
    with pytest.raises(ValidationError):
        Citation(**(CITATION | {field: blank}))


def test_it_freezes_citations() -> None:
    citation = Citation(**CITATION)
    with pytest.raises(ValidationError, match="frozen"):
        citation.source = "Someone else"
    assert citation.source == "WHO"


def test_it_hashes_equal_citations_equally() -> None:
    first, second, other = (
        Citation(**CITATION),
        Citation(**CITATION),
        Citation(source="WHO", reference="p. 5"),
    )
    assert {first, second, other} == {first, other}
    assert len({first, second, other}) == 2


def _edges() -> list[tuple[str, int, bool]]:
    """Each degree's own edges (accepted) and the values just past them (rejected)."""
    cases = []
    for degree, (low, high) in QUALIFIER_RANGES.items():
        cases += [(degree.value, low, True), (degree.value, high, True)]
        cases += [(degree.value, v, False) for v in (low - 1, high + 1) if 0 <= v <= 100]
    return cases


@pytest.mark.parametrize(("degree", "pct", "ok"), _edges())
def test_it_checks_confidence_against_the_degree_range(degree: str, pct: int, ok: bool) -> None:
    data = valid(Qualifier, degree=degree, confidence_pct=pct)
    if ok:
        assert Qualifier.model_validate(data).confidence_pct == pct
    else:
        with pytest.raises(ValidationError) as exc:
            Qualifier.model_validate(data)
        assert error_types(exc) == [(("confidence_pct",), "value_error")]


def test_it_names_the_spec_ranges() -> None:
    assert {d.value: r for d, r in QUALIFIER_RANGES.items()} == {
        "certainly": (90, 100),
        "presumably": (70, 89),
        "probably": (50, 69),
        "possibly": (30, 49),
        "apparently": (0, 29),
    }


def test_it_covers_every_percentage_with_exactly_one_degree() -> None:
    for pct in range(101):
        assert sum(lo <= pct <= hi for lo, hi in QUALIFIER_RANGES.values()) == 1, pct
    assert set(QUALIFIER_RANGES) == set(QualifierForce)


@pytest.mark.parametrize(
    ("degree", "pct"), [("apparently", -1), ("certainly", 101), ("certainly", 1000)]
)
def test_it_rejects_confidence_outside_0_to_100(degree: str, pct: int) -> None:
    with pytest.raises(ValidationError) as exc:
        Qualifier.model_validate(valid(Qualifier, degree=degree, confidence_pct=pct))
    assert error_types(exc)[0][1] in {"greater_than_equal", "less_than_equal"}


@pytest.mark.parametrize("pct", [True, False, 60.0, "60", None])
def test_it_rejects_a_confidence_that_is_not_an_int(pct: object) -> None:
    with pytest.raises(ValidationError) as exc:
        Qualifier.model_validate(valid(Qualifier, confidence_pct=pct))
    assert error_types(exc) == [(("confidence_pct",), "int_type")]


@pytest.mark.parametrize("raw", ["60.0", "true", '"60"'])
def test_it_rejects_a_non_int_confidence_in_json(raw: str) -> None:
    text = json.dumps(valid(Qualifier)).replace('"confidence_pct": 60', f'"confidence_pct": {raw}')
    with pytest.raises(ValidationError):
        Qualifier.model_validate_json(text)


def test_it_reports_only_the_bad_degree_when_the_degree_is_unknown() -> None:
    with pytest.raises(ValidationError) as exc:
        Qualifier.model_validate(valid(Qualifier, degree="surely", confidence_pct=95))
    assert error_types(exc) == [(("degree",), "enum")]


def _reasoning(text: str) -> str:
    return f"Having weighed all the evidence carefully, {text}"


@pytest.mark.parametrize(
    ("status", "reasoning"),
    [
        ("sustained", _reasoning("the rebuttal fails to defeat the claim.")),
        ("sustained", _reasoning("Fails: none of the exceptions applies here.")),
        ("sustained", _reasoning("the opposing view FAILS on its own terms.")),
        ("overruled", _reasoning("the rebuttal succeeds against the claim.")),
        ("overruled", _reasoning("the objection Succeeds, so the claim is defeated.")),
        # The model writes in the student's language: Spanish reasoning is held to the rule.
        ("sustained", "Tras sopesar toda la evidencia, la refutación falla por completo."),
        ("sustained", "Tras sopesar toda la evidencia, la objeción contraria FRACASA."),
        ("overruled", "Tras sopesar toda la evidencia, la refutación prospera frente a la tesis."),
        ("overruled", "Tras sopesar toda la evidencia, la objeción Triunfa y la derrota."),
    ],
)
def test_it_rejects_reasoning_that_contradicts_the_status(status: str, reasoning: str) -> None:
    with pytest.raises(ValidationError) as exc:
        Verdict.model_validate(valid(Verdict, status=status, reasoning=reasoning))
    assert error_types(exc) == [(("reasoning",), "value_error")]
    found = next(w for w in CONTRADICTING_WORDS[VerdictStatus(status)] if w in reasoning.lower())
    assert f"reasoning says '{found}'" in str(exc.value)


@pytest.mark.parametrize(
    ("status", "reasoning"),
    [
        ("sustained", _reasoning("the failsafe argument holds and nothing failed.")),
        ("sustained", _reasoning("the rebuttal succeeds only partially, the claim holds.")),
        ("overruled", _reasoning("the claim fails against an absolute rebuttal.")),
        ("overruled", _reasoning("nothing succeeded and the successor view holds.")),
        ("remanded", _reasoning("the claim fails here but succeeds there, so revise it.")),
        (
            "sustained",
            "Tras sopesar la evidencia, la tesis se sostiene y ninguna excepción aplica.",
        ),
        ("sustained", "Tras sopesar la evidencia, las objeciones fallaron y la tesis se sostiene."),
        ("overruled", "Tras sopesar la evidencia, la tesis falla ante una refutación absoluta."),
        ("overruled", "Tras sopesar la evidencia, ni una economía próspera salva la tesis."),
        (
            "remanded",
            "Tras sopesar la evidencia, la tesis falla aquí pero prospera allá; revísala.",
        ),
    ],
)
def test_it_accepts_reasoning_consistent_with_the_status(status: str, reasoning: str) -> None:
    verdict = Verdict.model_validate(valid(Verdict, status=status, reasoning=reasoning))
    assert verdict.status == status


@pytest.mark.parametrize(
    ("enum", "values"),
    [
        (StrengthLevel, ["absolute", "strong", "weak", "irrelevant"]),
        (VerdictStatus, ["sustained", "overruled", "remanded"]),
        (QualifierForce, ["certainly", "presumably", "probably", "possibly", "apparently"]),
        (LogicType, ["deductive", "inductive", "abductive"]),
        (EvidenceType, ["empirical", "statistical", "testimonial", "documentary", "expert"]),
    ],
)
def test_it_defines_the_spec_enum_values(enum: type, values: list[str]) -> None:
    assert [member.value for member in enum] == values
    assert all(isinstance(member, str) for member in enum)


def test_it_reports_a_nested_error_at_its_dotted_location() -> None:
    data = valid(Phase1Output, claim=valid(Claim, statement="Too short"))
    with pytest.raises(ValidationError) as exc:
        Phase1Output.model_validate(data)
    assert error_types(exc) == [(("claim", "statement"), "string_too_short")]


# --- the phase outputs as `output_format=` for the anthropic SDK -------------------------

# What the SDK's transform keeps and the structured-output API accepts; anything else
# (minLength, minimum, ...) the SDK folds into the description.
ALLOWED_KEYS = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "description",
    "title",
    "format",
    "minItems",
}


def _schemas(node: Any) -> list[dict[str, Any]]:
    """Every sub-schema of a JSON schema, the root included."""
    found = [node]
    for key, value in node.items():
        if key in {"properties", "$defs"}:
            for child in value.values():
                found += _schemas(child)
        elif key == "items":
            found += _schemas(value)
        elif key in {"anyOf", "allOf"}:
            for child in value:
                found += _schemas(child)
    return found


@pytest.mark.parametrize("model", list(PHASES), ids=lambda m: m.__name__)
def test_it_survives_the_sdk_schema_transform(model: type[BaseModel]) -> None:
    output_format = to_json_output_format(model)
    schema = output_format["schema"]
    assert output_format["type"] == "json_schema"
    assert schema == transform_schema(model)
    for node in _schemas(schema):
        assert set(node) <= ALLOWED_KEYS, set(node) - ALLOWED_KEYS
        assert node.get("minItems", 0) in (0, 1)
        if node.get("type") == "object":
            assert node["additionalProperties"] is False
            assert set(node["required"]) == set(node["properties"])


@pytest.mark.parametrize("model", list(PHASES), ids=lambda m: m.__name__)
def test_it_keeps_every_constraint_the_sdk_can_express(model: type[BaseModel]) -> None:
    # pydantic's own schema must not rely on something the transform drops silently:
    # every object must already forbid extras, so the API enforces what pydantic does.
    for node in _schemas(model.model_json_schema()):
        if node.get("type") == "object":
            assert node["additionalProperties"] is False


@pytest.mark.parametrize("model", list(PHASES), ids=lambda m: m.__name__)
def test_it_parses_a_reply_the_way_the_sdk_does(model: type[BaseModel]) -> None:
    parsed = parse_text(json.dumps(valid(model)), model)
    assert isinstance(parsed, model)
    assert parsed.model_dump(mode="json") == valid(model)
