"""A real Celery worker, in its own process, runs a trial from Redis against PostgreSQL.

It needs both services (skips with a reason otherwise): the worker is a
separate process, so it must see the test database, which SQLite's
in-memory test database cannot offer. The task goes to a queue of its own,
so workers of other tests on the same Redis cannot take it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from tests.fakes.anthropic_server import Reply
from tests.services import require_postgres_url, require_redis_url
from tests.trials import phase_data
from tests.trials.factories import make_user
from trials.models import Trial, TrialStatus
from trials.tasks import run_trial_task

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


def _test_database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (f":{quote(str(db['PASSWORD']))}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_a_worker_process_runs_the_trial_once(fake_anthropic):
    redis_url = require_redis_url()
    require_postgres_url()
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(backing_strength="weak")),
    )
    trial = Trial.objects.create(owner=make_user(), query="Should tram rides be free?")
    queue = f"trials-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "SECRET_KEY": "worker-test-only-key",
        "ANTHROPIC_BASE_URL": fake_anthropic.base_url,
        "ANTHROPIC_API_KEY": "sk-ant-fake-test-key",
        "LLM_MAX_RETRIES": "0",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo"]
        + ["-Q", queue, "-l", "warning", "--without-heartbeat", "--without-gossip"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        # Sent twice: the second delivery must find the trial claimed and do nothing.
        run_trial_task.apply_async(args=(trial.pk,), queue=queue)
        run_trial_task.apply_async(args=(trial.pk,), queue=queue)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            trial.refresh_from_db()
            if trial.is_finished and worker.poll() is None:
                break
            assert worker.poll() is None, worker.stderr.read().decode()
            time.sleep(0.1)
        time.sleep(0.5)  # room for the duplicate delivery to run (and do nothing)
    finally:
        worker.terminate()
        worker.wait(timeout=20)

    assert trial.status == TrialStatus.TERMINATED
    assert len(fake_anthropic.message_requests) == 2
