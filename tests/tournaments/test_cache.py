"""The response cache: identical requests within the TTL are answered without a call."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from engine.models import Debate, DebateStatus, LLMCall
from engine.orchestrator import run_debate
from tournaments.cache import compress, decompress
from tournaments.models import CachedResponse, Tournament
from tournaments.services import create_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _play(**kwargs) -> Tournament:
    tournament = create_tournament(
        user=None,
        question="Which cache for session data?",
        decision_type="cache",
        models=["alpha-1", "beta-1"],
        budget_usd=Decimal("5"),
        launch_now=False,
        **kwargs,
    )
    run_debate(debate_id=tournament.debate_id)
    tournament.refresh_from_db()
    assert tournament.debate.status == DebateStatus.DONE, tournament.debate.error
    return tournament


def _model_calls(tournament: Tournament):
    return LLMCall.objects.filter(debate_id=tournament.debate_id).exclude(agent="arbiter")


def test_it_answers_an_identical_request_from_the_cache(fake_anthropic, fake_model) -> None:
    first = _play()
    assert first.cache_hits == 0 and first.cache_misses > 0
    asked = len(fake_anthropic.requests)

    second = _play()

    # 2 initial recommendations, 2 challenges, 2 defences: all from the cache, at cost 0,
    # recorded in the ledger so a resumed run replays them.
    assert second.cache_hits >= 6
    assert _model_calls(second).count() == 6
    assert all(c.cost_usd == 0 for c in _model_calls(second))
    model_requests = [
        r for r in fake_anthropic.requests[asked:] if "Task: verdict" not in str(r.body)
    ]
    assert model_requests == []
    output = Debate.objects.get(pk=second.debate_id).output
    assert output["cache"]["hits"] == second.cache_hits and output["cache"]["hitRate"] > 0.5


def test_an_expired_entry_is_asked_again(fake_anthropic, fake_model) -> None:
    _play()
    CachedResponse.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    asked = len(fake_anthropic.requests)

    again = _play()

    assert again.cache_hits == 0
    assert len(fake_anthropic.requests) - asked >= 6
    assert all(c.cost_usd > 0 for c in _model_calls(again))
    assert CachedResponse.objects.filter(expires_at__gt=timezone.now()).count() >= 6


def test_no_cache_neither_reads_nor_counts(fake_anthropic, fake_model) -> None:
    _play()
    asked = len(fake_anthropic.requests)

    fresh = _play(no_cache=True)

    assert fresh.cache_hits == fresh.cache_misses == 0
    assert len(fake_anthropic.requests) - asked >= 6


def test_the_stored_body_is_compressed() -> None:
    text = '{"recommendation": "' + "PostgreSQL " * 200 + '"}'
    body = compress(text)
    assert len(body) < len(text) / 5 and decompress(body) == text
