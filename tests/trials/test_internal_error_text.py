"""A trial that fails on a database error tells the student in plain words, instructors in full."""

from __future__ import annotations

from html import unescape

import pytest
from django.db import DataError
from django.test import Client
from django.urls import reverse

from tests.trials.factories import make_argument, make_user
from trials import runner
from trials.models import TrialFailure, TrialStatus
from trials.runner import run_trial
from trials.services import start_trial

pytestmark = pytest.mark.django_db


def test_it_never_shows_a_database_errors_text_to_the_student(
    fake_anthropic, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # Nothing real still fails a write with model text, so the failure is injected
    # where a model's NUL used to fail: in the chain's database work.
    def failing(**kwargs):
        raise DataError('UPDATE "trials_trial" SET "phase1" = \'\\x00\' WHERE id = 1')

    monkeypatch.setattr(runner, "run_chain", failing)
    ana = make_user("ana")
    with django_capture_on_commit_callbacks(execute=False):
        trial = start_trial(user=ana, argument=make_argument(owner=ana))

    done = run_trial(trial.pk)

    assert (done.status, done.failure) == (TrialStatus.FAILED, TrialFailure.INTERNAL)
    assert "DataError" in done.reason  # kept for instructors
    client = Client()
    client.force_login(ana)
    for url in (reverse("trials:trial_detail", args=[done.pk]), reverse("trials:trial_list")):
        page = unescape(client.get(url).content.decode())
        for internal in ("UPDATE", "trials_trial", "DataError", "\\x00"):
            assert internal not in page, (url, internal)
