"""A started trial runs in the background: a thread without a broker, the Celery task with one."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from tests.fakes.anthropic_server import Reply
from tests.trials import phase_data
from tests.trials.factories import make_argument, make_user
from trials.models import Trial, TrialStatus
from trials.runner import STALE_AFTER
from trials.services import resume_stale_trials, start_trial
from trials.tasks import run_trial_task


def _wait_until_finished(trial_id: int, *, timeout: float = 15.0) -> Trial:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        trial = Trial.objects.get(pk=trial_id)
        if trial.is_finished:
            return trial
        time.sleep(0.05)
    raise AssertionError(f"trial {trial_id} still {trial.status} after {timeout} s")


@pytest.mark.django_db(transaction=True)
def test_it_runs_a_started_trial_in_a_thread_once_committed(fake_anthropic, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True  # no broker
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(warrant_strength="weak")),
    )
    student = make_user()
    with transaction.atomic():
        trial = start_trial(user=student, argument=make_argument(owner=student))
        assert fake_anthropic.message_requests == []  # nothing runs before the commit

    done = _wait_until_finished(trial.pk)

    assert done.status == TrialStatus.TERMINATED
    assert len(fake_anthropic.message_requests) == 2


@pytest.mark.django_db
def test_the_celery_task_runs_the_trial_once(fake_anthropic):
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2(backing_strength="irrelevant")),
    )
    student = make_user()
    trial = start_trial(user=student, question="Should tram rides be free?")

    run_trial_task.apply(args=(trial.pk,))
    run_trial_task.apply(args=(trial.pk,))  # a re-delivery

    assert Trial.objects.get(pk=trial.pk).status == TrialStatus.TERMINATED
    assert len(fake_anthropic.message_requests) == 2


@pytest.mark.django_db(transaction=True)
def test_it_resumes_only_the_trials_left_behind(fake_anthropic, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    fake_anthropic.enqueue(Reply.json(phase_data.phase2(warrant_strength="irrelevant")))
    student = make_user()
    long_ago = timezone.now() - STALE_AFTER - timedelta(minutes=1)
    abandoned = Trial.objects.create(
        owner=student,
        query="Q",
        status=TrialStatus.RUNNING,
        started_at=long_ago,
        phase1=phase_data.phase1(),
    )
    busy = Trial.objects.create(
        owner=student, query="Q", status=TrialStatus.RUNNING, started_at=timezone.now()
    )
    done = Trial.objects.create(owner=student, query="Q", status=TrialStatus.SUSTAINED)
    Trial.objects.filter(pk=done.pk).update(created_at=long_ago)

    assert resume_stale_trials() == [abandoned.pk]

    assert _wait_until_finished(abandoned.pk).status == TrialStatus.TERMINATED
    assert len(fake_anthropic.message_requests) == 1  # phase 2 only: phase 1 was saved
    assert Trial.objects.get(pk=busy.pk).status == TrialStatus.RUNNING
