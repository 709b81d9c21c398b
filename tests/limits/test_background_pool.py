"""Without a broker, background work runs on a bounded pool of threads; the rest waits in line."""

from __future__ import annotations

import threading
import time
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from config import background
from config.background import BackgroundPool
from tests.fakes.anthropic_server import Reply
from tests.trials import phase_data
from tests.trials.factories import make_user
from trials.models import Trial, TrialStatus
from trials.runner import STALE_AFTER
from trials.services import start_trial


def test_it_runs_queued_work_once_a_thread_frees() -> None:
    pool = BackgroundPool(size=lambda: 1)
    release = threading.Event()
    started: list[str] = []

    first = pool.submit(lambda: (started.append("first"), release.wait(5))[1])
    second = pool.submit(lambda: started.append("second") or "done")
    time.sleep(0.2)

    assert started == ["first"]  # the only thread is busy: the second job waits
    assert not second.done()
    release.set()
    assert second.result(timeout=5) == "done"
    assert first.result(timeout=5) is True
    assert started == ["first", "second"]
    assert pool.threads == 1


def test_it_never_runs_more_jobs_at_once_than_its_size() -> None:
    pool = BackgroundPool(size=lambda: 2)
    lock = threading.Lock()
    running, most = 0, 0

    def job() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1

    futures = [pool.submit(job) for _ in range(8)]

    assert pool.wait(timeout=10)
    assert all(future.done() for future in futures)
    assert most == 2
    assert pool.threads == 2


def test_it_hands_a_failure_to_whoever_waits_and_goes_on() -> None:
    pool = BackgroundPool(size=lambda: 1)

    failed = pool.submit(lambda: 1 / 0)
    after = pool.submit(lambda: "still running")

    with pytest.raises(ZeroDivisionError):
        failed.result(timeout=5)
    assert after.result(timeout=5) == "still running"


def _wait_until(predicate, *, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


@pytest.mark.django_db(transaction=True)
def test_it_queues_trials_beyond_the_thread_cap(fake_anthropic, settings, monkeypatch) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker: the pool runs them
    monkeypatch.setattr(background, "_pool", BackgroundPool(size=lambda: 1))
    fake_anthropic.latency_ms = 300
    # Each trial stops after phase 2 (an irrelevant warrant): two calls each.
    for _ in range(2):
        fake_anthropic.enqueue(
            Reply.json(phase_data.phase1()),
            Reply.json(phase_data.phase2(warrant_strength="irrelevant")),
        )
    student = make_user()
    first = start_trial(user=student, question="Should trams be free?")
    second = start_trial(user=student, question="Should buses be free?")

    _wait_until(lambda: Trial.objects.get(pk=first.pk).status == TrialStatus.RUNNING)
    assert Trial.objects.get(pk=second.pk).status == TrialStatus.PENDING  # waiting in line
    _wait_until(lambda: Trial.objects.get(pk=second.pk).is_finished)

    assert Trial.objects.get(pk=first.pk).status == TrialStatus.TERMINATED
    assert Trial.objects.get(pk=second.pk).status == TrialStatus.TERMINATED
    assert len(fake_anthropic.message_requests) == 4


@pytest.mark.django_db(transaction=True)
def test_it_resume_command_runs_the_work_before_it_exits(fake_anthropic, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(warrant_strength="irrelevant")),
    )
    left_behind = Trial.objects.create(owner=make_user(), query="Q", status=TrialStatus.PENDING)
    Trial.objects.filter(pk=left_behind.pk).update(
        created_at=timezone.now() - STALE_AFTER - STALE_AFTER
    )

    call_command("resume_trials", stdout=StringIO())

    # The command returned: its threads would die with its process, so it waited.
    assert Trial.objects.get(pk=left_behind.pk).status == TrialStatus.TERMINATED


# --- a fair share for each user ------------------------------------------------


def test_it_keeps_a_thread_for_another_user_while_one_users_queue_is_long() -> None:
    # One student queues eight runs on four threads; another student's run must
    # not wait behind them (before: it waited until one of the eight finished).
    pool = BackgroundPool(size=lambda: 4, per_owner=lambda: 2)
    gate = threading.Event()
    held = threading.Semaphore(0)

    def anas_run() -> None:
        held.release()
        gate.wait(timeout=10)

    anas = [pool.submit(anas_run, owner="ana") for _ in range(8)]
    assert all(held.acquire(timeout=5) for _ in range(2))  # two run, six wait

    bens = pool.submit(lambda: "ben's run", owner="ben")

    assert bens.result(timeout=5) == "ben's run"  # while all of ana's are still held
    assert not held.acquire(blocking=False)  # and ana's third has not started
    gate.set()
    assert pool.wait(timeout=10) and all(future.done() for future in anas)


def test_it_gives_a_freed_thread_to_the_next_user_in_turn() -> None:
    pool = BackgroundPool(size=lambda: 1)
    gate = threading.Event()
    order: list[str] = []
    started = threading.Event()

    def first() -> None:
        order.append("ana-1")
        started.set()
        gate.wait(timeout=10)

    pool.submit(first, owner="ana")
    started.wait(timeout=5)
    for name, owner in (("ana-2", "ana"), ("ana-3", "ana"), ("ben-1", "ben"), ("cleo-1", "cleo")):
        pool.submit(lambda name=name: order.append(name), owner=owner)
    gate.set()

    assert pool.wait(timeout=10)
    assert order == ["ana-1", "ben-1", "cleo-1", "ana-2", "ana-3"]


def test_it_never_lets_one_user_hold_every_thread_even_without_a_bound() -> None:
    pool = BackgroundPool(size=lambda: 3, per_owner=lambda: 0)
    gate = threading.Event()
    held = threading.Semaphore(0)

    def anas_run() -> None:
        held.release()
        gate.wait(timeout=10)

    anas = [pool.submit(anas_run, owner="ana") for _ in range(5)]
    assert all(held.acquire(timeout=5) for _ in range(2))  # two of three threads

    assert pool.submit(lambda: "done", owner="ben").result(timeout=5) == "done"
    assert not held.acquire(blocking=False)  # ana's third run still waits
    gate.set()
    assert pool.wait(timeout=10) and all(future.done() for future in anas)
