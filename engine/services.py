"""Running, retrying and resuming runs of any format; what a run counts against quotas.

How a run runs depends on whether there is a broker:

- With ``REDIS_URL`` (Celery not eager): :func:`launch` enqueues the task
  (engine/tasks.py) with ``delay_on_commit``, so a worker never looks for a
  row that is not committed yet. Start workers with ``make worker``.
- Without it (``make run``'s default, ``CELERY_TASK_ALWAYS_EAGER``): an eager
  task would run the whole run inside the POST that created it. Instead,
  on commit, it runs in a daemon thread of the web process, through the same
  orchestrator; the SSE view follows it by polling the event table.
  A server restart kills such threads: ``manage.py resume_debates`` (or
  :func:`resume_stale_debates`) starts again every run whose lease expired,
  and it resumes from its last saved stage.

A format's own ``create`` (debates/services.py, inquiries, tournaments, stress
tests) saves its row and calls :func:`launch` in the same transaction.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Case, DecimalField, F, Q, When
from django.db.models.functions import Greatest
from django.utils import timezone

from config.background import run_in_background_on_commit
from engine import events, orchestrator
from engine.admission import admit_run
from engine.calls import close_thread_runner
from engine.models import Debate, DebateStatus
from llm import api_key_configured

__all__ = [
    "NO_KEY_MESSAGE",
    "RetryRefused",
    "debate_cost",
    "debates_available",
    "StopRefused",
    "launch",
    "request_stop",
    "resume_stale_debates",
    "retry_debate",
]

NO_KEY_MESSAGE = "An Anthropic API key (ANTHROPIC_API_KEY) is needed to run debates."


def debates_available() -> bool:
    """Runs need the model: without an API key, the pages say a key is needed."""
    return api_key_configured()


class RetryRefused(ValueError):
    """Only a failed debate can be retried, and only by whoever started it."""


class StopRefused(ValueError):
    """Only a queued or running run can be stopped, and only by whoever started it."""


def request_stop(*, debate_id: int, user) -> Debate:
    """Ask a run to stop: it ends ``stopped`` before its next stage, paying for nothing more.

    The stage under way (if any) finishes and is kept, as every stage is saved
    whole or not at all; the worker sees the request when it reads the row
    between stages (engine/orchestrator.py). Asking twice changes nothing.

    A run still queued is ended here and now: no worker may be there to take it
    (a site with Redis but no Celery worker running), and the owner would read
    "Stopping" until one came. This request claims it as a worker would and runs
    it to the stop, which comes before its first stage: no call is made. If a
    worker claimed it first, that worker stops it before its next stage instead.
    """
    with transaction.atomic():
        debate = (
            Debate.objects.select_for_update()
            .filter(pk=debate_id, creator_id=getattr(user, "pk", None))
            .first()
        )
        if debate is None or not debate.can_stop:
            raise StopRefused("only a queued or running run of yours can be stopped")
        debate.stop_requested_at = timezone.now()
        Debate.objects.filter(pk=debate.pk).update(
            stop_requested_at=debate.stop_requested_at, updated_at=timezone.now()
        )
    if debate.status == DebateStatus.QUEUED:
        orchestrator.run_debate(debate_id=debate.pk)
        debate.refresh_from_db()
    return debate


def retry_debate(*, debate_id: int, user) -> Debate:
    """Queue a failed debate again; it resumes from its last saved stage.

    Nothing is repeated that was saved: stages with a ``StageRun`` are
    skipped, paid calls are replayed from the ledger, and only the calls the
    service never answered are asked again (engine/ledger.py). A
    ``debate_resumed`` event tells the live page the log goes on.
    """
    if not debates_available():
        raise RetryRefused(NO_KEY_MESSAGE)
    with transaction.atomic():
        debate = (
            Debate.objects.select_for_update()
            .filter(pk=debate_id, creator_id=getattr(user, "pk", None))
            .first()
        )
        if debate is None or not debate.can_retry:
            raise RetryRefused("only a failed debate of yours can be retried")
        # Queued again, it counts at its whole budget: the part not spent yet
        # must fit the quota, and it runs again, so the running cap applies.
        _admit(user=user, budget=max(debate.budget_usd - debate.cost_usd, Decimal(0)))
        events.record_event(
            debate=debate,
            type=events.DEBATE_RESUMED,
            payload={"round": debate.rounds_completed, "after": debate.failure},
        )
        Debate.objects.filter(pk=debate.pk).update(
            status=DebateStatus.QUEUED,
            failure="",
            error="",
            # Retrying is asking it to go on: an older request to stop is void.
            stop_requested_at=None,
            finished_at=None,
            claimed_by="",
            lease_expires_at=None,
            updated_at=timezone.now(),
        )
        launch(debate.pk)
    debate.refresh_from_db()
    return debate


def _admit(*, user, budget: Decimal) -> None:
    """The creator's limits, before the row that counts against them is saved.

    Call inside the transaction that saves the debate (see engine/admission.py).
    The whole budget is reserved (see `debate_cost`).
    """
    admit_run(user=user, action="debate", reserve_usd=budget)


def debate_cost() -> Case:
    """What a debate counts against its creator's quota (limits.services).

    Finished: what it cost. Queued or running: its whole budget, or its cost
    if that went higher (the budget check estimates each stage before it
    runs). A failed debate that is retried counts its budget again.
    """
    return Case(
        When(
            status__in=[DebateStatus.QUEUED, DebateStatus.RUNNING],
            then=Greatest(F("cost_usd"), F("budget_usd")),
        ),
        default=F("cost_usd"),
        output_field=DecimalField(max_digits=14, decimal_places=6),
    )


def launch(debate_id: int) -> None:
    """Run the debate after the current transaction commits (see config/background.py)."""
    from engine.tasks import run

    run_in_background_on_commit(
        task=run,
        target=_run_here,
        object_id=debate_id,
        name=f"debate-{debate_id}",
        owner=lambda: _creator_id(debate_id),
    )


def _creator_id(debate_id: int) -> int | None:
    """Whose fair share of the background threads a run counts in."""
    return Debate.objects.filter(pk=debate_id).values_list("creator_id", flat=True).first()


def _run_here(debate_id: int) -> None:
    try:
        orchestrator.run_debate(debate_id=debate_id)
    finally:
        close_thread_runner()  # the thread's private event loop and model client


def resume_stale_debates() -> list[int]:
    """Relaunch debates nobody is running: running with an expired lease, or never claimed."""
    now = timezone.now()
    stale = Debate.objects.filter(
        Q(status=DebateStatus.RUNNING, lease_expires_at__lt=now)
        | Q(
            status=DebateStatus.QUEUED,
            created_at__lt=now - timedelta(seconds=settings.DEBATE_LEASE_SECONDS),
        )
    ).values_list("pk", flat=True)
    ids = list(stale)
    for debate_id in ids:
        with transaction.atomic():
            launch(debate_id)
    return ids
