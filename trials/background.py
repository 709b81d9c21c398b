"""Hand a trial to the background (config/background.py: a worker, else a thread).

A server restart kills in-process threads: `manage.py resume_trials` starts
unfinished trials again.
"""

from __future__ import annotations

from config.background import run_in_background
from trials.models import Trial
from trials.runner import run_trial
from trials.tasks import run_trial_task

__all__ = ["enqueue_trial"]


def enqueue_trial(trial_id: int) -> None:
    """Start running the trial; call it after the trial row is committed."""
    run_in_background(
        task=run_trial_task,
        target=run_trial,
        object_id=trial_id,
        name=f"trial-{trial_id}",
        # Its owner's fair share of the threads (config/background.py).
        owner=lambda: Trial.objects.filter(pk=trial_id).values_list("owner_id", flat=True).first(),
    )
