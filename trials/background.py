"""Hand a trial to the background: a Celery worker when there is a broker, else a thread.

Without a broker (`CELERY_TASK_ALWAYS_EAGER`, the default when REDIS_URL is
unset) Celery would run the task inside the request, and the student would
wait for four model calls before seeing the page. A daemon thread instead
lets the response go out at once, and the page polls for the phases.

debates/services.py does the same for debates privately (`launch`); this
small twin is kept here so the two apps stay independent. A server restart
kills such threads: `manage.py resume_trials` starts them again.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections

__all__ = ["enqueue_trial"]

logger = logging.getLogger(__name__)


def _run_in_thread(trial_id: int) -> None:
    from trials.services import run_trial

    try:
        run_trial(trial_id)
    except Exception:
        logger.exception("background trial %s crashed", trial_id)
    finally:
        connections.close_all()  # this thread's own connections only


def enqueue_trial(trial_id: int) -> None:
    """Start running the trial; call it after the trial row is committed."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        threading.Thread(
            target=_run_in_thread, args=(trial_id,), name=f"trial-{trial_id}", daemon=True
        ).start()
        return
    from trials.tasks import run_trial_task

    run_trial_task.delay(trial_id)
