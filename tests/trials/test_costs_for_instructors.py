"""A trial's model calls, tokens and dollars are instructor detail: students see how long it took."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from tests.trials import phase_data
from tests.trials.factories import make_user
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


def _finished_trial(owner) -> Trial:
    now = timezone.now()
    return Trial.objects.create(
        owner=owner,
        query="Should cities ban cars?",
        question="Should cities ban cars?",
        status=TrialStatus.SUSTAINED,
        phase1=phase_data.phase1(),
        phase2=phase_data.phase2(),
        phase3=phase_data.phase3(),
        phase4=phase_data.phase4(),
        input_tokens=12_345,
        output_tokens=2_345,
        cost_usd=Decimal("0.0421"),
        started_at=now - timedelta(seconds=4.2),
        finished_at=now,
    )


def _page(client, user, trial) -> str:
    client.force_login(user)
    response = client.get(reverse("trials:trial_detail", args=[trial.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_it_hides_tokens_and_costs_from_a_student(client):
    ana = make_user("ana")
    body = _page(client, ana, _finished_trial(ana))
    assert "14690" not in body and "tokens" not in body
    assert "0.0421" not in body
    assert "Weighed in 4.2 s" in body


def test_it_shows_tokens_and_costs_to_an_instructor(client):
    tess = make_user("tess")
    tess.is_staff = True
    tess.save()
    tess.user_permissions.add(Permission.objects.get(codename="view_trial"))
    body = _page(client, tess, _finished_trial(tess))
    assert "14690 tokens" in body
    assert "$0.0421" in body


def test_staff_status_alone_does_not_show_costs(client):
    sam = make_user("sam")
    sam.is_staff = True
    sam.save()
    body = _page(client, sam, _finished_trial(sam))
    assert "tokens" not in body and "0.0421" not in body
