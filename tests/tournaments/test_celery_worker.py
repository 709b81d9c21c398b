"""A tournament on a real Celery worker on Redis; a SIGKILL mid-match resumes cleanly.

Same set-up as tests/debates/test_celery_worker.py (PostgreSQL shared with the
worker processes, the in-process fake server, a short visibility timeout and
lease). The worker runs with the site's settings, so the models here are ones
the price table knows.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from decimal import Decimal

import pytest
from django.db.models import Count, Sum

from engine.models import Debate, DebateStatus, LLMCall
from tests.debates.test_celery_worker import (  # noqa: F401 - the workers fixture
    SHORT_TIMEOUT_S,
    _wait_for,
    workers,
)
from tests.fakes.tournament_model import FakeTournamentModel
from tournaments.models import Match, MatchStatus, Rating, RatingChange
from tournaments.services import create_tournament

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

MODELS = ["claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5", "claude-haiku-5-5-fast"]


def _start() -> Debate:
    tournament = create_tournament(
        user=None,
        question="Which database for a 10,000-student course platform?",
        decision_type="database",
        models=MODELS,
        budget_usd=Decimal("20"),
        no_cache=True,
    )
    return tournament.debate


def _finished(debate: Debate):
    return lambda: Debate.objects.get(pk=debate.pk).is_finished


def test_a_killed_worker_s_tournament_resumes_without_double_counting(
    workers,  # noqa: F811 - the fixture imported above
    fake_anthropic,
):
    fake_anthropic.responder = FakeTournamentModel(strength={"claude-haiku-5-5": 90})
    fake_anthropic.latency_ms = 300
    first = workers.start()
    debate = _start()

    # Kill the worker in the middle of bracket round 1: a challenge is paid (in the
    # ledger) but the challenge stage, with its turns, is not committed yet.
    _wait_for(
        lambda: LLMCall.objects.filter(debate=debate, stage="challenge").exists(),
        timeout=60,
        workers=workers,
        what="a paid challenge",
    )
    workers.kill(first)
    killed_at = time.monotonic()
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.RUNNING
    assert not RatingChange.objects.exists()

    time.sleep(max(0.0, SHORT_TIMEOUT_S + 0.5 - (time.monotonic() - killed_at)))
    workers.start()
    _wait_for(_finished(debate), timeout=120, workers=workers, what="the resumed tournament")

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.attempts == 2
    assert debate.output["finalWinner"] == "claude-haiku-5-5"
    matches = Match.objects.filter(tournament__debate=debate)
    assert matches.count() == 3 and not matches.filter(status=MatchStatus.RUNNING).exists()
    # Each match moved the ratings exactly once.
    per_match = matches.annotate(n=Count("rating_changes")).values_list("n", flat=True)
    assert list(per_match) == [2, 2, 2]
    assert sum(Rating.objects.values_list("rating", flat=True)) == Decimal("4800.00")
    # Each request is one ledger row, billed once; the debate's total is the ledger's.
    calls = list(LLMCall.objects.filter(debate=debate).values_list("request_hash", flat=True))
    assert len(calls) == len(set(calls))
    total = LLMCall.objects.filter(debate=debate).aggregate(t=Sum("cost_usd"))["t"]
    assert debate.cost_usd == total
    # Every request reached the model once, except calls in flight at the kill
    # (answered, never recorded): at most one stage's worth (2 matches x 2 sides).
    # A request the SIGKILL cut off while it was being sent arrives with half a body,
    # which the fake server records as None: it never reached the model as a request.
    sent = [r.body for r in fake_anthropic.message_requests if r.body is not None]
    bodies = Counter(json.dumps(body, sort_keys=True) for body in sent)
    assert len(bodies) == len(calls)
    assert sum(n - 1 for n in bodies.values()) <= 4
