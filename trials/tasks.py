"""The Celery task that runs a trial: thin, because `run_trial` is idempotent.

`run_trial` claims the trial with a conditional UPDATE, so a task delivered
twice (acks_late after a worker died, or a double enqueue) runs it once.
"""

from celery import shared_task

from trials.runner import run_trial


@shared_task(name="trials.run_trial")
def run_trial_task(trial_id: int) -> None:
    run_trial(trial_id)
