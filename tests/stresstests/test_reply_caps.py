"""Every string and list the model writes in a stress test is bounded (as tests/llm checks)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from stresstests.schemas import ConcessionVerdicts, DefenceVerdict, PersonaReply
from tests.llm.test_reply_caps import uncapped


@pytest.mark.parametrize(
    "model", [ConcessionVerdicts, DefenceVerdict, PersonaReply], ids=lambda m: m.__name__
)
def test_it_caps_every_string_and_list_a_model_writes(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    assert uncapped(schema, schema.get("$defs", {}), model.__name__) == []


def test_it_refuses_a_megabyte_reason() -> None:
    verdict = {"relevant": True, "restatement": False, "denies_the_objection": True}
    with pytest.raises(ValidationError):
        DefenceVerdict.model_validate({**verdict, "reason": "x" * 1_000_000})
