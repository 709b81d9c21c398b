"""A failed trial in plain words, its Retry, and the details kept for instructors.

The chain talks to the fake Anthropic server through the real SDK, which
retries a 529 itself before giving up; pages are read through the test client.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.fakes.anthropic_server import Reply
from tests.trials import phase_data
from tests.trials.factories import make_argument, make_user
from trials.chain import Failure
from trials.models import Trial, TrialFailure, TrialStatus
from trials.runner import run_trial
from trials.services import start_trial

pytestmark = pytest.mark.django_db

RETRIES = 1


@pytest.fixture(autouse=True)
def few_retries(settings):
    settings.LLM_MAX_RETRIES = RETRIES


@pytest.fixture
def ana():
    return make_user("ana")


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def page_text(client: Client, trial: Trial) -> str:
    response = client.get(reverse("trials:trial_detail", args=[trial.pk]))
    assert response.status_code == 200
    return unescape(response.content.decode())


def overloaded() -> Reply:
    return Reply.error(529, error_type="overloaded_error", message="Overloaded")


def test_it_says_the_service_was_unavailable_and_retries_without_retyping(
    fake_anthropic, ana, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        trial = start_trial(user=ana, argument=make_argument(owner=ana))
    fake_anthropic.enqueue(Reply.json(phase_data.phase1()), *[overloaded()] * (1 + RETRIES))

    done = run_trial(trial.pk)

    assert (done.status, done.failure, done.stopped_phase) == (
        TrialStatus.FAILED,
        TrialFailure.SERVICE_UNAVAILABLE,
        2,
    )
    text = page_text(signed_in(ana), done)
    assert "The AI service was unavailable" in text
    for internal in ("529", "OverloadedError", "overloaded_error", "call_failed", "Error code"):
        assert internal not in text
    assert reverse("trials:trial_retry", args=[trial.pk]) in text
    assert "csrfmiddlewaretoken" in text
    # Instructors see what the service said, and the code.
    teacher = get_user_model().objects.create_superuser("teacher", password="x" * 12)
    admin_page = signed_in(teacher).get(reverse("admin:trials_trial_change", args=[trial.pk]))
    assert "call_failed" in admin_page.content.decode() and "529" in admin_page.content.decode()

    # Retry: the same trial runs again from phase 2; phase 1 is not asked twice.
    fake_anthropic.enqueue(Reply.json(phase_data.phase2(warrant_strength="weak")))
    sent_before = len(fake_anthropic.message_requests)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = signed_in(ana).post(reverse("trials:trial_retry", args=[trial.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("trials:trial_detail", args=[trial.pk])
    # Handed to the background on commit (run below, in this thread).
    assert any(c.__qualname__.startswith("retry_trial") for c in queued)
    pending = Trial.objects.get(pk=trial.pk)
    assert (pending.status, pending.failure, pending.reason) == (TrialStatus.PENDING, "", "")

    again = run_trial(trial.pk)  # what the background would run

    assert again.status == TrialStatus.TERMINATED and again.stopped_phase == 2
    assert len(fake_anthropic.message_requests) == sent_before + 1
    assert again.phase1 == phase_data.phase1() and again.phase2 is not None
    # The failed attempts stay on record, the new call after them.
    assert [(c["phase"], c["ok"]) for c in again.calls] == [(1, True), (2, False), (2, True)]


def test_it_keeps_rule_codes_and_the_rejected_reply_for_instructors_only(
    fake_anthropic, ana, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        trial = start_trial(user=ana, argument=make_argument(owner=ana))
    rejected = phase_data.phase4(status="sustained")
    rejected["verdict"]["final_statement"] = "REJECTED-VERDICT-TEXT"
    fake_anthropic.enqueue(
        Reply.json(phase_data.phase1()),
        Reply.json(phase_data.phase2()),
        Reply.json(phase_data.phase3(rebuttal_strength="absolute")),
        Reply.json(rejected),
        Reply.json(rejected),
    )

    done = run_trial(trial.pk)

    assert (done.status, done.failure) == (TrialStatus.FAILED, TrialFailure.REPLY_REJECTED)
    assert "rebuttal_absolute_requires_overruled" in done.reason
    student_page = page_text(signed_in(ana), done)
    assert "broke the court's rules twice" in student_page
    assert "rebuttal_absolute_requires_overruled" not in student_page
    assert "REJECTED-VERDICT-TEXT" not in student_page

    teacher = get_user_model().objects.create_superuser("teacher", password="x" * 12)
    admin_page = unescape(
        signed_in(teacher)
        .get(reverse("admin:trials_trial_change", args=[trial.pk]))
        .content.decode()
    )
    assert "rebuttal_absolute_requires_overruled" in admin_page
    assert "REJECTED-VERDICT-TEXT" in admin_page
    assert "the AI's reply was rejected twice" in admin_page  # the failure, by name


def test_it_lets_only_the_owner_retry_and_only_a_failed_trial(fake_anthropic, ana) -> None:
    failed = Trial.objects.create(
        owner=ana, query="q", status=TrialStatus.FAILED, failure="internal"
    )
    url = reverse("trials:trial_retry", args=[failed.pk])
    ben = make_user("ben")

    assert signed_in(ben).post(url).status_code == 404
    assert signed_in(ana).get(url).status_code == 405
    assert signed_in(ana, enforce_csrf_checks=True).post(url).status_code == 403
    assert Trial.objects.get(pk=failed.pk).status == TrialStatus.FAILED

    done = Trial.objects.create(owner=ana, query="q", status=TrialStatus.SUSTAINED)
    response = signed_in(ana).post(reverse("trials:trial_retry", args=[done.pk]), follow=True)
    assert "Only a failed trial can be retried." in unescape(response.content.decode())
    assert Trial.objects.get(pk=done.pk).status == TrialStatus.SUSTAINED


def test_it_names_the_same_failures_in_the_chain_and_the_model() -> None:
    chain = {v for k, v in vars(Failure).items() if k.isupper()}
    assert chain == set(TrialFailure.values)
