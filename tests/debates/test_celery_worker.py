"""Real Celery workers on real Redis run debates, and survive a SIGKILL.

Workers are separate processes, so they need a database they can share with
the test: PostgreSQL (the in-memory SQLite test database is invisible to other
processes). Both tests skip with a reason without REDIS_URL or a PostgreSQL
DATABASE_URL, and fail if those are set but unreachable.

The model is the in-process fake server (tests/fakes) playing the scripted
debate model; the workers reach it over loopback, so the test can count every
request the workers sent.

Redelivery after a crash: the killed worker never acknowledged its task
(``acks_late``), so Redis hands it to the next worker once the visibility
timeout has passed. The test shortens it with ``CELERY_VISIBILITY_TIMEOUT=3``
and the debate lease with ``DEBATE_LEASE_SECONDS=3``; kombu re-queues
messages older than the timeout when a worker starts.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from debates import events
from debates.models import DebateArgument
from debates.services import create_debate
from engine import events as engine_events
from engine.models import Debate, DebateEvent, DebateStatus, LLMCall
from engine.tasks import OLD_NAME
from tests.debates.factories import default_personas, make_debate
from tests.fakes.debate_model import FakeDebateModel
from tests.services import require_postgres_url

pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

ROOT = Path(__file__).resolve().parents[2]
SHORT_TIMEOUT_S = 3


def _test_database_url() -> str:
    """DATABASE_URL pointing at the test database pytest-django created."""
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}{port}/{db['NAME']}"


class Workers:
    """Celery worker processes on a private queue; each in its own process group."""

    def __init__(self, *, env: dict[str, str], queue: str, logs: Path) -> None:
        self.env = env
        self.queue = queue
        self.logs = logs
        self.processes: list[subprocess.Popen] = []

    def start(self) -> subprocess.Popen:
        number = len(self.processes) + 1
        log = open(self.logs / f"worker-{number}.log", "w")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-Q",
                self.queue,
                "-c",
                "1",
                "-n",
                f"{self.queue}-{number}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "info",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)
        return process

    @staticmethod
    def kill(process: subprocess.Popen) -> None:
        """SIGKILL the worker and its pool children: no cleanup, no acknowledgement."""
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                # Cold shutdown: the workers are idle by now, nothing to wait for.
                os.killpg(process.pid, signal.SIGQUIT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)

    def log_text(self) -> str:
        return "\n".join(p.read_text() for p in sorted(self.logs.glob("worker-*.log")))


@pytest.fixture
def workers(redis_url, fake_anthropic, tmp_path):
    require_postgres_url()
    queue = f"debates-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": redis_url,
        "ANTHROPIC_BASE_URL": fake_anthropic.base_url,
        "ANTHROPIC_API_KEY": "sk-ant-fake-worker-key",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "worker-test-key",
        "CELERY_VISIBILITY_TIMEOUT": str(SHORT_TIMEOUT_S),
        "DEBATE_LEASE_SECONDS": str(SHORT_TIMEOUT_S),
        "PYTHONPATH": str(ROOT),
    }
    previous_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    pool = Workers(env=env, queue=queue, logs=tmp_path)
    yield pool
    pool.stop_all()
    celery_app.conf.task_default_queue = previous_queue


def _start_debate(*, rounds: int) -> Debate:
    assert not settings.CELERY_TASK_ALWAYS_EAGER, "REDIS_URL is set, so Celery has a broker"
    return create_debate(
        topic="Remote work should be the default for office jobs",
        persona_ids=[p.id for p in default_personas(2)],
        max_rounds=rounds,
        budget_usd=Decimal("5"),
        creator=None,
    )


def _wait_for(predicate, *, timeout: float, workers: Workers, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}\n--- worker logs ---\n{workers.log_text()[-4000:]}")


def _finished(debate: Debate):
    return lambda: Debate.objects.get(pk=debate.pk).is_finished


def test_it_runs_a_debate_on_a_celery_worker(workers, fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    workers.start()

    debate = _start_debate(rounds=1)

    _wait_for(_finished(debate), timeout=60, workers=workers, what="the debate to finish")
    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.attempts == 1
    assert LLMCall.objects.filter(debate=debate).count() == 1 + 2 + 1 * 3
    types = list(debate.events.order_by("seq").values_list("type", flat=True))
    assert types[0] == engine_events.DEBATE_START and types[-1] == engine_events.DEBATE_COMPLETE


def test_it_runs_a_message_queued_under_the_tasks_old_name(workers, fake_anthropic):
    """A message the broker held from before the task was ``engine.run`` still runs."""
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=2, rounds=1)  # queued, not launched
    celery_app.send_task(OLD_NAME, args=[debate.pk], queue=workers.queue)
    workers.start()

    _wait_for(_finished(debate), timeout=60, workers=workers, what="the debate to finish")
    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE, debate.error
    assert f"{OLD_NAME}[" in workers.log_text()  # the worker received it under that name


def test_it_resumes_a_debate_after_its_worker_is_killed(workers, fake_anthropic):
    fake_anthropic.responder = FakeDebateModel()
    fake_anthropic.latency_ms = 300
    first = workers.start()
    debate = _start_debate(rounds=2)

    # Kill the worker while the round-1 validation call is in flight.
    _wait_for(
        lambda: DebateEvent.objects.filter(
            debate=debate, type=events.ATTACKS_GENERATED, payload__round=1
        ).exists(),
        timeout=60,
        workers=workers,
        what="round 1 attacks",
    )
    time.sleep(0.15)
    workers.kill(first)
    killed_at = time.monotonic()
    debate.refresh_from_db()
    assert debate.status == DebateStatus.RUNNING
    events_at_kill = debate.events.count()

    # Past the visibility timeout, a new worker gets the unacknowledged task again.
    time.sleep(max(0.0, SHORT_TIMEOUT_S + 0.5 - (time.monotonic() - killed_at)))
    workers.start()
    _wait_for(_finished(debate), timeout=90, workers=workers, what="the resumed debate")

    debate.refresh_from_db()
    assert debate.status == DebateStatus.DONE, debate.error
    assert debate.attempts == 2
    stored = list(debate.events.order_by("seq"))
    assert len(stored) > events_at_kill
    assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
    per_round = Counter((e.type, e.payload.get("round")) for e in stored)
    assert max(per_round.values()) == 1, per_round  # no event written twice
    keys = list(DebateArgument.objects.filter(debate=debate).values_list("key", flat=True))
    assert len(keys) == len(set(keys))
    calls = list(LLMCall.objects.filter(debate=debate).values_list("request_hash", flat=True))
    assert len(calls) == len(set(calls)) == 1 + 2 + 2 * 3
    # Every request reached the model once, except calls in flight at the kill
    # (answered, never recorded): at most one stage's worth.
    # A request the SIGKILL cut off while it was being sent arrives with half a body,
    # which the fake server records as None: it never reached the model as a request.
    sent = [r.body for r in fake_anthropic.message_requests if r.body is not None]
    bodies = Counter(json.dumps(body, sort_keys=True) for body in sent)
    assert len(bodies) == len(calls)
    assert sum(n - 1 for n in bodies.values()) <= 2 + 1
