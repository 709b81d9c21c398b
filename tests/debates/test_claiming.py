"""One worker at a time: claims, leases, and takeover after a worker dies."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine.claiming import LeaseLost, claim_debate, hold_lease, renew_lease
from engine.models import Debate, DebateStatus
from tests.debates.factories import make_debate

pytestmark = pytest.mark.django_db


def test_it_claims_a_queued_debate_once():
    debate = make_debate()
    first = claim_debate(debate_id=debate.id, worker="w1", lease_seconds=60)
    second = claim_debate(debate_id=debate.id, worker="w2", lease_seconds=60)
    debate.refresh_from_db()
    assert first.outcome == "claimed"
    assert second.outcome == "busy" and 50 < second.retry_in <= 60
    assert (debate.status, debate.claimed_by, debate.attempts) == (DebateStatus.RUNNING, "w1", 1)


def test_it_lets_another_worker_take_over_an_expired_lease():
    debate = make_debate()
    claim_debate(debate_id=debate.id, worker="w1", lease_seconds=60)
    Debate.objects.filter(pk=debate.pk).update(lease_expires_at=timezone.now() - timedelta(1))
    assert claim_debate(debate_id=debate.id, worker="w2", lease_seconds=60).outcome == "claimed"
    with pytest.raises(LeaseLost):
        renew_lease(debate_id=debate.id, worker="w1", lease_seconds=60)
    with pytest.raises(LeaseLost), transaction.atomic():
        hold_lease(debate_id=debate.id, worker="w1")
    debate.refresh_from_db()
    assert (debate.claimed_by, debate.attempts) == ("w2", 2)


def test_it_reports_finished_and_missing_debates():
    debate = make_debate()
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.DONE)
    assert claim_debate(debate_id=debate.id, worker="w", lease_seconds=60).outcome == "finished"
    assert (
        claim_debate(debate_id=debate.id + 999, worker="w", lease_seconds=60).outcome == "missing"
    )


def test_it_renews_the_lease_of_its_holder():
    debate = make_debate()
    claim_debate(debate_id=debate.id, worker="w1", lease_seconds=1)
    renew_lease(debate_id=debate.id, worker="w1", lease_seconds=600)
    debate.refresh_from_db()
    assert debate.lease_expires_at > timezone.now() + timedelta(seconds=500)


def test_it_holds_the_lease_on_the_row_the_orm_would_read_locked():
    debate = make_debate()
    assert claim_debate(debate_id=debate.pk, worker="w1", lease_seconds=60).outcome == "claimed"
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = hold_lease(debate_id=debate.pk, worker="w1")
    expected = Debate.objects.get(pk=debate.pk)
    for field in Debate._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(expected, field.attname), field.name
    selects = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT")]
    assert len(selects) == 1
    # PostgreSQL locks the row; SQLite's IMMEDIATE transactions lock the file.
    assert selects[0].endswith("FOR UPDATE") == connection.features.has_select_for_update
    with transaction.atomic(), pytest.raises(LeaseLost):
        hold_lease(debate_id=debate.pk, worker="w2")
    with transaction.atomic(), pytest.raises(Debate.DoesNotExist):
        hold_lease(debate_id=debate.pk + 1000, worker="w1")
