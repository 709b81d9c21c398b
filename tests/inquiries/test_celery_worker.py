"""A real Celery worker on real Redis runs an inquiry, and a SIGKILL mid-inquiry resumes cleanly.

Same set-up as tests/debates/test_celery_worker.py (PostgreSQL shared with the
worker processes, a private queue, short visibility timeout and lease): the
inquiry is one more format of the same engine, so the same guarantees must
hold — no node run twice, no claim, event or audit record duplicated, no call
billed twice.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from casefiles.demo import load_demo_case_file
from engine.models import Debate, DebateEvent, DebateStatus, LLMCall, StageRun
from inquiries.audit import verify_chain
from inquiries.models import AuditRecord, RegisteredClaim
from inquiries.services import create_inquiry
from tests.debates.test_celery_worker import SHORT_TIMEOUT_S, _wait_for, workers  # noqa: F401
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def _start(settings) -> Debate:
    settings.LIMITS_EXEMPT_STAFF = True
    user = get_user_model().objects.create_user("ada", is_staff=True)
    case_file = load_demo_case_file(owner=user)
    return create_inquiry(
        user=user,
        question="Should our city adopt congestion pricing?",
        case_file_id=case_file.pk,
        max_rounds=3,
        budget_usd=Decimal("5"),
    )


def test_it_resumes_an_inquiry_after_its_worker_is_killed(workers, fake_anthropic, settings):  # noqa: F811
    fake_anthropic.responder = FakeInquiryModel(free_fact={"risk_officer"})
    fake_anthropic.latency_ms = 300
    first = workers.start()
    debate = _start(settings)

    # Kill the worker while the round-1 observers are being asked.
    _wait_for(
        lambda: DebateEvent.objects.filter(
            debate=debate, type="inquiry_output", payload__node="sanad_breaker_challenge"
        ).exists(),
        timeout=60,
        workers=workers,
        what="the round-1 challenge",
    )
    time.sleep(0.15)
    workers.kill(first)
    killed_at = time.monotonic()
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.RUNNING

    time.sleep(max(0.0, SHORT_TIMEOUT_S + 0.5 - (time.monotonic() - killed_at)))
    workers.start()
    _wait_for(
        lambda: Debate.objects.get(pk=debate.pk).is_finished,
        timeout=120,
        workers=workers,
        what="the resumed inquiry",
    )

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.attempts == 2
    stages = list(StageRun.objects.filter(debate=debate).values_list("name", "round"))
    assert len(stages) == len(set(stages))
    assert ("observer_critiques:resend", 1) in stages
    keys = list(RegisteredClaim.objects.filter(inquiry_id=debate.pk).values_list("key", flat=True))
    assert len(keys) == len(set(keys))
    stored = list(debate.events.order_by("seq"))
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    outputs = Counter(
        (e.payload["node"], e.payload["round"], e.payload["agent"], e.payload["attempt"])
        for e in stored
        if e.type == "inquiry_output"
    )
    assert max(outputs.values()) == 1, outputs
    calls = list(LLMCall.objects.filter(debate=debate).values_list("request_hash", flat=True))
    assert len(calls) == len(set(calls))
    # A request the SIGKILL cut off while it was being sent arrives with half a body,
    # which the fake server records as None: it never reached the model as a request.
    sent = [r.body for r in fake_anthropic.message_requests if r.body is not None]
    bodies = Counter(json.dumps(body, sort_keys=True) for body in sent)
    assert len(bodies) == len(calls)
    # At most the calls in flight at the kill (the two observers) were asked twice.
    assert sum(n - 1 for n in bodies.values()) <= 2
    assert AuditRecord.objects.filter(inquiry_id=debate.pk).count() == len(stages)
    assert verify_chain(debate.pk) == []
