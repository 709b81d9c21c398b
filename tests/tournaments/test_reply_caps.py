"""Every string and list a tournament model or arbiter writes is capped."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from tests.llm.test_reply_caps import uncapped
from tournaments.schemas import ChallengeResponse, DefenceResponse, RecommendationDraft
from tournaments.verdicts import ConvergenceJudgement, MatchVerdict


@pytest.mark.parametrize(
    "model",
    [RecommendationDraft, ChallengeResponse, DefenceResponse, ConvergenceJudgement, MatchVerdict],
    ids=lambda model: model.__name__,
)
def test_it_caps_every_string_and_list_a_tournament_reply_holds(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    assert uncapped(schema, schema.get("$defs", {}), model.__name__) == []
