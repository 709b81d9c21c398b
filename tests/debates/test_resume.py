"""A run that dies mid-stage is resumed by the next attempt, without paying twice.

The "death" is a BaseException raised at a chosen point, the way a SIGKILL
looks to the database: the stage's transaction never commits, no ``except
Exception`` handler marks the debate failed, and the lease stays taken. The
real thing — a Celery worker killed with SIGKILL — is in
test_celery_worker.py and needs Redis and PostgreSQL.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models.signals import post_save
from django.utils import timezone

from debates.models import DebateArgument
from engine.models import Debate, DebateStatus, LLMCall, StageRun
from engine.orchestrator import run_debate
from engine.stop_reasons import StopReason
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


class WorkerKilled(BaseException):
    """Not an Exception: nothing in the orchestrator may catch it."""


def kill_when(model, predicate):
    """Raise WorkerKilled when a row of ``model`` matching ``predicate`` is saved."""

    def receiver(sender, instance, created, **kwargs):
        if created and predicate(instance):
            raise WorkerKilled(f"killed at {instance}")

    post_save.connect(receiver, sender=model, weak=False)
    return lambda: post_save.disconnect(receiver, sender=model)


def expire_lease(debate: Debate) -> None:
    """Time passes: the dead worker's lease runs out."""
    Debate.objects.filter(pk=debate.pk).update(lease_expires_at=timezone.now() - timedelta(1))


def snapshot_rows(debate: Debate):
    return {
        "events": list(debate.events.order_by("seq").values_list("seq", "type")),
        "arguments": list(DebateArgument.objects.filter(debate=debate).values_list("key", "claim")),
        "calls": sorted(
            LLMCall.objects.filter(debate=debate).values_list("request_hash", flat=True)
        ),
    }


def test_it_resumes_after_dying_between_paying_and_saving_a_stage(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=2, rounds=2)
    # Die as the attacks of round 2 are being saved: their calls are paid and
    # in the ledger, the stage's rows and events roll back.
    undo = kill_when(StageRun, lambda run: (run.name, run.round) == ("attacks", 2))
    try:
        with pytest.raises(WorkerKilled):
            run_debate(debate_id=debate.id)
    finally:
        undo()
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    assert not StageRun.objects.filter(debate=debate, name="attacks", round=2).exists()
    paid_before = LLMCall.objects.filter(debate=debate).count()
    sent_before = len(fake_anthropic.message_requests)
    assert (
        paid_before == sent_before == 1 + 2 + 3 + 2
    )  # decompose, arguments, round 1, round-2 attacks

    assert run_debate(debate_id=debate.id).outcome == "busy"  # the lease still holds
    expire_lease(debate)
    assert run_debate(debate_id=debate.id).outcome == "claimed"

    debate.refresh_from_db()
    assert (debate.status, debate.stop_reason) == (DebateStatus.DONE, StopReason.MAX_ROUNDS)
    assert debate.attempts == 2
    # Only the round-2 validation was still to pay for.
    assert len(fake_anthropic.message_requests) == sent_before + 1
    rows = snapshot_rows(debate)
    assert [seq for seq, _ in rows["events"]] == list(range(1, len(rows["events"]) + 1))
    assert len(rows["calls"]) == len(set(rows["calls"])) == 9
    assert len({key for key, _ in rows["arguments"]}) == len(rows["arguments"])


def test_it_resumes_to_the_same_debate_as_an_uninterrupted_run(fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    reference = make_debate(personas=2, rounds=2)
    run_debate(debate_id=reference.id)
    interrupted = make_debate(personas=2, rounds=2)
    undo = kill_when(StageRun, lambda run: (run.name, run.round) == ("validation", 1))
    try:
        with pytest.raises(WorkerKilled):
            run_debate(debate_id=interrupted.id)
    finally:
        undo()
    expire_lease(interrupted)
    run_debate(debate_id=interrupted.id)

    reference.refresh_from_db()
    interrupted.refresh_from_db()
    assert snapshot_rows(interrupted)["events"] == snapshot_rows(reference)["events"]
    assert snapshot_rows(interrupted)["arguments"] == snapshot_rows(reference)["arguments"]
    assert interrupted.output == reference.output
    # Same requests, each sent once (costs differ only by the prompt cache).
    assert snapshot_rows(interrupted)["calls"] == snapshot_rows(reference)["calls"]
    assert len(fake_anthropic.message_requests) == 2 * 9
