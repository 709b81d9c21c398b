"""JSON nested thousands of levels deep, from an MCP client or the model, is refused in words."""

from __future__ import annotations

import pytest

from trials.checks import INVALID_JSON, check_output
from trials.inputs import PhaseInputError
from trials.phases import PHASES
from trials.prompts import build_prompt

DEEP = "[" * 5000 + "]" * 5000


def test_it_refuses_a_component_nested_thousands_deep() -> None:
    with pytest.raises(PhaseInputError) as caught:
        build_prompt(phase=2, query="Cities should ban cars.", components={"data": DEEP})
    assert (
        "data: not valid JSON (the JSON is nested deeper than 32 levels)"
        in (caught.value.response["error"])
    )


def test_it_sends_back_a_reply_nested_thousands_deep() -> None:
    check = check_output(phase=PHASES[0], text=DEEP)
    assert check.output is None and [p.rule for p in check.problems] == [INVALID_JSON]
