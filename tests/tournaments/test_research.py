"""Research through the Messages API's tool use: up to 2 queries, recorded, one ledger entry."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.models import Debate, DebateStatus, LLMCall
from engine.orchestrator import run_debate
from tournaments.models import Turn
from tournaments.research import Research, search_text
from tournaments.services import create_tournament

pytestmark = pytest.mark.django_db(transaction=True)

CONTEXT = (
    "The platform serves 10,000 students. Read replicas absorb read-heavy course pages. "
    "A connection pooler keeps the database from running out of connections at exam time."
)


def _play(**kwargs):
    tournament = create_tournament(
        user=None,
        question="Which database for a 10,000-student course platform?",
        decision_type="database",
        models=["alpha-1", "beta-1"],
        budget_usd=Decimal("5"),
        context=CONTEXT,
        launch_now=False,
        **kwargs,
    )
    run_debate(debate_id=tournament.debate_id)
    debate = Debate.objects.get(pk=tournament.debate_id)
    assert debate.status == DebateStatus.DONE, debate.error
    return tournament, debate


def test_a_challenge_runs_a_research_query_through_tool_use(fake_anthropic, fake_model) -> None:
    fake_model.research = True

    tournament, debate = _play()

    turn = Turn.objects.get(match__tournament=tournament, kind="challenge", model="alpha-1")
    [record] = turn.tool_calls
    assert record["tool_name"] == "research" and record["claim"] == "scaling"
    assert record["query"] == "read replicas connection pooling"
    assert any("Read replicas" in r["text"] for r in record["results"])
    assert 0 < record["confidence"] <= 1 and record["tokens"] > 0 and record["cost"] == "0"
    # The model answered with what it found (the fake quotes the first result).
    assert "Read replicas" in turn.content["critical_weaknesses"][0]["evidence"]
    # The whole exchange is one ledger entry, billed for both turns.
    challenges = LLMCall.objects.filter(debate=debate, stage="challenge")
    assert challenges.count() == 2
    sent = [r.body for r in fake_anthropic.requests if "Task: challenge" in str(r.body)]
    assert len(sent) == 4 and all(b["tools"][0]["name"] == "research" for b in sent)
    followups = [b for b in sent if len(b["messages"]) == 3]
    assert followups and followups[0]["messages"][2]["content"][0]["type"] == "tool_result"


def test_a_third_query_is_refused_and_the_model_answers(fake_anthropic, fake_model) -> None:
    fake_model.research = True
    fake_model.research_calls = 3

    tournament, _ = _play()

    turn = Turn.objects.get(match__tournament=tournament, kind="challenge", model="alpha-1")
    assert len(turn.tool_calls) == 2
    last = [r.body for r in fake_anthropic.requests if "Task: challenge" in str(r.body)][-1]
    refused = last["messages"][-1]["content"][0]
    assert refused["is_error"] and "limit" in refused["content"]


def test_no_tool_is_offered_without_anything_to_search(fake_anthropic, fake_model) -> None:
    fake_model.research = True
    tournament = create_tournament(
        user=None,
        question="Which queue?",
        decision_type="messaging",
        models=["alpha-1", "beta-1"],
        budget_usd=Decimal("5"),
        launch_now=False,
    )
    run_debate(debate_id=tournament.debate_id)
    assert all("tools" not in r.body for r in fake_anthropic.requests)


def test_search_text_ranks_sentences_by_shared_words() -> None:
    found = search_text("connection pooler exam", CONTEXT)
    assert found[0][0].startswith("A connection pooler") and found[0][1] == 1.0
    assert search_text("", CONTEXT) == [] and search_text("zebra", CONTEXT) == []


def test_the_fingerprint_depends_on_what_is_searched() -> None:
    assert (
        Research(context="a", case_file_id=None).fingerprint
        == Research(context="b", case_file_id=None).fingerprint
    )  # the context is in the prompt already
    assert (
        Research(context="", case_file_id=1).fingerprint
        != Research(context="", case_file_id=2).fingerprint
    )


def test_a_query_searches_the_case_file_when_there_is_one(
    fake_anthropic, fake_model, scaling_notes
) -> None:
    fake_model.research = True

    tournament, _ = _play(case_file=scaling_notes)

    turn = Turn.objects.get(match__tournament=tournament, kind="defence", model="beta-1")
    [record] = turn.tool_calls
    assert record["results"][0]["source"] == "Ops review"
    assert "Read replicas" in record["results"][0]["text"] and record["confidence"] > 0
