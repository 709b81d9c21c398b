"""Exactly one worker runs a debate at a time: a claim with a lease.

``claim_debate`` is one conditional UPDATE: it succeeds for a ``queued``
debate, or for a ``running`` one whose lease has expired (its worker died or
hung). The winner holds the lease for ``lease_seconds`` and renews it as work
progresses (before each stage, after each call). A second delivery of the
same task while the first worker is alive finds the lease valid and is told
how long to wait (``busy``); a delivery for a finished debate does nothing.

Every stage commits under :func:`hold_lease`, which re-reads the debate row
with ``SELECT ... FOR UPDATE`` and checks the worker still holds it: if the
lease was lost (a slow worker overtaken by a new one), the stale worker's
transaction is rolled back instead of writing a second copy of a stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from engine.models import FINISHED_STATUSES, Debate, DebateStatus

__all__ = ["Claim", "LeaseLost", "claim_debate", "hold_lease", "renew_lease"]


class LeaseLost(Exception):
    """Another worker took this debate over; this one must stop writing."""


@dataclass(frozen=True, slots=True)
class Claim:
    outcome: Literal["claimed", "busy", "finished", "missing"]
    retry_in: float = 0.0


def claim_debate(*, debate_id: int, worker: str, lease_seconds: float) -> Claim:
    now = timezone.now()
    claimable = Q(status=DebateStatus.QUEUED) | Q(
        Q(lease_expires_at__lt=now) | Q(lease_expires_at__isnull=True),
        status=DebateStatus.RUNNING,
    )
    updated = Debate.objects.filter(claimable, pk=debate_id).update(
        status=DebateStatus.RUNNING,
        claimed_by=worker,
        lease_expires_at=now + timedelta(seconds=lease_seconds),
        attempts=F("attempts") + 1,
        started_at=Coalesce(F("started_at"), now),
        updated_at=now,
    )
    if updated:
        return Claim("claimed")
    row = Debate.objects.filter(pk=debate_id).values("status", "lease_expires_at").first()
    if row is None:
        return Claim("missing")
    if row["status"] in FINISHED_STATUSES:
        return Claim("finished")
    expires = row["lease_expires_at"] or now
    return Claim("busy", retry_in=max(0.0, (expires - now).total_seconds()))


def renew_lease(*, debate_id: int, worker: str, lease_seconds: float) -> None:
    """Push the lease forward; raise LeaseLost if this worker no longer holds it."""
    now = timezone.now()
    renewed = Debate.objects.filter(
        pk=debate_id, claimed_by=worker, status=DebateStatus.RUNNING
    ).update(lease_expires_at=now + timedelta(seconds=lease_seconds))
    if not renewed:
        raise LeaseLost(f"debate {debate_id} is no longer held by {worker}")


def hold_lease(*, debate_id: int, worker: str) -> Debate:
    """Inside a transaction: lock the debate row and check this worker holds it."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("hold_lease must run inside transaction.atomic()")
    try:
        debate = Debate.objects.select_for_update().get(pk=debate_id)
    except Debate.DoesNotExist:
        raise Debate.DoesNotExist(f"debate {debate_id} does not exist") from None
    if debate.claimed_by != worker or debate.status != DebateStatus.RUNNING:
        raise LeaseLost(f"debate {debate_id} is no longer held by {worker}")
    return debate
