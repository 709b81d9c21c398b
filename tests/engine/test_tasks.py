"""The run's Celery task has the engine's name, and the name it had before still runs.

A broker may hold messages sent as ``debates.run_debate`` before the rename
(queued runs, a redelivery after a crash). A worker finds a message's task by
its name in the app's registry, so the old name must stay there and run the
run as ``engine.run`` does. Here each task is found by name, as a worker finds
it, and applied in process (the real-worker path is tests/debates/test_celery_worker.py).
"""

from __future__ import annotations

import pytest

from config.celery import app as celery_app
from engine.models import DebateStatus
from engine.stop_reasons import StopReason
from engine.tasks import OLD_NAME, TASK_NAME
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


def _task(name: str):
    celery_app.loader.import_default_modules()  # what a worker does at start-up
    return celery_app.tasks[name]


def test_it_names_the_task_after_the_engine():
    assert TASK_NAME == "engine.run"
    task = _task(TASK_NAME)
    assert (task.acks_late, task.reject_on_worker_lost, task.ignore_result) == (True, True, True)


@pytest.mark.parametrize("name", [TASK_NAME, OLD_NAME])
def test_it_runs_a_message_sent_under_either_name(fake_anthropic, name):
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=2, rounds=1)

    outcome = _task(name).apply(args=[debate.pk]).get()

    debate.refresh_from_db()
    assert outcome == "claimed"
    assert (debate.status, debate.stop_reason) == (DebateStatus.DONE, StopReason.MAX_ROUNDS)


def test_it_runs_the_old_name_with_the_same_delivery_rules():
    new, old = _task(TASK_NAME), _task(OLD_NAME)
    assert old is not new
    rules = ("acks_late", "reject_on_worker_lost", "ignore_result", "max_retries")
    assert [getattr(old, rule) for rule in rules] == [getattr(new, rule) for rule in rules]
