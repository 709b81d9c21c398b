"""Instructors read trials in the admin, filtered by status and student, beside the transcript."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from coach.models import CoachMessage
from tests.trials import phase_data
from tests.trials.factories import make_argument, make_user
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def instructor_client(client):
    instructor = get_user_model().objects.create_superuser("teacher", password="x" * 12)
    client.force_login(instructor)
    return client


def test_it_filters_trials_by_status_and_student(instructor_client):
    ana, ben = make_user("ana"), make_user("ben")
    Trial.objects.create(owner=ana, query="Ana sustained", status=TrialStatus.SUSTAINED)
    Trial.objects.create(owner=ana, query="Ana failed", status=TrialStatus.FAILED)
    Trial.objects.create(owner=ben, query="Ben sustained", status=TrialStatus.SUSTAINED)
    url = reverse("admin:trials_trial_changelist")

    by_status = instructor_client.get(url, {"status__exact": "sustained"}).content.decode()
    by_student = instructor_client.get(url, {"owner__id__exact": ana.pk}).content.decode()

    assert "Ana sustained" in by_status and "Ben sustained" in by_status
    assert "Ana failed" not in by_status
    assert "Ana sustained" in by_student and "Ana failed" in by_student
    assert "Ben sustained" not in by_student


def test_it_shows_a_trial_beside_its_arguments_transcript(instructor_client):
    ana = make_user("ana")
    argument = make_argument(owner=ana)
    CoachMessage.objects.create(
        argument=argument, role="assistant", step="claim", text="What do you claim?"
    )
    CoachMessage.objects.create(argument=argument, role="user", step="claim", text="<i>Buses</i>")
    trial = Trial.objects.create(
        owner=ana,
        argument=argument,
        query="the argument",
        status=TrialStatus.TERMINATED,
        phase1=phase_data.phase1(),
        calls=[{"phase": 1, "attempt": 1, "ok": True, "rules": [], "cost_usd": "0.01"}],
    )

    page = instructor_client.get(
        reverse("admin:trials_trial_change", args=[trial.pk])
    ).content.decode()

    assert "What do you claim?" in page
    assert "&lt;i&gt;Buses&lt;/i&gt;" in page
    assert phase_data.phase1()["claim"]["statement"] in page
    assert "initiate_toulmin_sequence" in page
