"""The Celery task that runs a run of any format: thin, idempotent, late-acknowledged.

``acks_late`` + ``reject_on_worker_lost`` (also set globally in settings):
the broker forgets the message only after the task returns, so a worker
killed mid-run leaves it to be delivered again (after the broker's
visibility timeout, ``CELERY_VISIBILITY_TIMEOUT``). Running it twice is safe:
the orchestrator's claim lets one attempt in, and a resumed attempt skips
every stage already saved. A delivery that finds the run held by a live
worker retries once that worker's lease would have run out, so a run whose
worker died is picked up even if the duplicate delivery came early.

The task is ``engine.run``. Until the engine moved out of the graph debate's
app it was ``debates.run_debate``, and a broker may still hold messages sent
under that name (queued runs, a redelivery after a crash): a worker runs them
as it runs ``engine.run``, so the old name stays registered.
"""

from __future__ import annotations

from celery import Task, shared_task

from engine import orchestrator

__all__ = ["OLD_NAME", "TASK_NAME", "run", "run_queued_under_old_name"]

TASK_NAME = "engine.run"
OLD_NAME = "debates.run_debate"
BUSY_RETRIES = 100

_OPTIONS = {"bind": True, "acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


def _run(task: Task, debate_id: int) -> str:
    claim = orchestrator.run_debate(debate_id=debate_id)
    if claim.outcome == "busy":
        raise task.retry(countdown=claim.retry_in + 1.0, max_retries=BUSY_RETRIES)
    return claim.outcome


@shared_task(name=TASK_NAME, **_OPTIONS)
def run(self: Task, debate_id: int) -> str:
    return _run(self, debate_id)


@shared_task(name=OLD_NAME, **_OPTIONS)
def run_queued_under_old_name(self: Task, debate_id: int) -> str:
    return _run(self, debate_id)
