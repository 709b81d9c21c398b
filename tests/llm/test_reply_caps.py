"""Every field a model writes has an upper bound (a 50 MB claim was once accepted).

Walks the JSON schema of every structured reply the site asks for: each free
string needs maxLength, each list maxItems. A new schema or field without a
cap fails here.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from argumentation.toulmin import Phase1Output, Phase2Output, Phase3Output, Phase4Output
from coach.schemas import CoachAIResult
from debates.schemas import (
    MAX_SENTENCE_CHARS,
    AttackValidations,
    PersonaArguments,
    PersonaAttacks,
    TopicDecomposition,
)
from inquiries.schemas import AgentReply, ArbiterReply

REPLY_MODELS = [
    CoachAIResult,
    TopicDecomposition,
    PersonaArguments,
    PersonaAttacks,
    AttackValidations,
    Phase1Output,
    Phase2Output,
    Phase3Output,
    Phase4Output,
    AgentReply,
    ArbiterReply,
]


def uncapped(schema: dict[str, Any], defs: dict[str, Any], path: str) -> list[str]:
    if "$ref" in schema:
        return uncapped(defs[schema["$ref"].rsplit("/", 1)[1]], defs, path)
    found: list[str] = []
    for option in schema.get("anyOf", []):
        found += uncapped(option, defs, path)
    kind = schema.get("type")
    if kind == "string" and "enum" not in schema and "maxLength" not in schema:
        found.append(path)
    if kind == "array":
        if "maxItems" not in schema:
            found.append(f"{path}[]")
        found += uncapped(schema.get("items", {}), defs, f"{path}[]")
    for name, sub in schema.get("properties", {}).items():
        found += uncapped(sub, defs, f"{path}.{name}")
    return found


@pytest.mark.parametrize("model", REPLY_MODELS, ids=lambda model: model.__name__)
def test_it_caps_every_string_and_list_a_model_writes(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    assert uncapped(schema, schema.get("$defs", {}), model.__name__) == []


def test_it_refuses_a_megabyte_claim_in_a_debate() -> None:
    argument = {"claim": "x" * 1_000_000, "premises": [], "assumptions": [], "evidence": []}
    with pytest.raises(ValidationError):
        PersonaArguments.model_validate({"arguments": [argument]})
    argument["claim"] = "x" * MAX_SENTENCE_CHARS
    assert PersonaArguments.model_validate({"arguments": [argument]})


def test_it_refuses_a_megabyte_fact_in_a_trial() -> None:
    phase1 = {
        "data": {
            "facts": ["f" * 1_000_000],
            "citations": [{"source": "A survey", "reference": "p. 3"}],
            "evidence_type": "empirical",
        },
        "claim": {"statement": "Cities should limit cars.", "scope": "general"},
    }
    with pytest.raises(ValidationError):
        Phase1Output.model_validate(phase1)
