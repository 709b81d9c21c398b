"""The Celery task that runs a debate: thin, idempotent, late-acknowledged.

``acks_late`` + ``reject_on_worker_lost`` (also set globally in settings):
the broker forgets the message only after the task returns, so a worker
killed mid-debate leaves it to be delivered again (after the broker's
visibility timeout, ``CELERY_VISIBILITY_TIMEOUT``). Running it twice is safe:
the orchestrator's claim lets one attempt in, and a resumed attempt skips
every stage already saved. A delivery that finds the debate held by a live
worker retries once that worker's lease would have run out, so a debate whose
worker died is picked up even if the duplicate delivery came early.
"""

from __future__ import annotations

from celery import shared_task

from engine import orchestrator

__all__ = ["run_debate"]

BUSY_RETRIES = 100


@shared_task(
    bind=True,
    name="debates.run_debate",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def run_debate(self, debate_id: int) -> str:
    claim = orchestrator.run_debate(debate_id=debate_id)
    if claim.outcome == "busy":
        raise self.retry(countdown=claim.retry_in + 1.0, max_retries=BUSY_RETRIES)
    return claim.outcome
