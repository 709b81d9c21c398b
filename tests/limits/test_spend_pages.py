"""Instructors see each student's spend in the admin; students see what is left, in plain words."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from coach.models import CoachTurn
from coach.services import create_argument
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def quota(settings):
    settings.QUOTA_DAILY_USD = Decimal("5")
    settings.QUOTA_MONTHLY_USD = Decimal("50")


@pytest.fixture
def instructor(django_user_model) -> Client:
    admin = django_user_model.objects.create_superuser("prof", "prof@example.org", None)
    client = Client()
    client.force_login(admin)
    return client


def _spend(owner, *, coach: str = "0", trial: str = "0") -> None:
    argument = create_argument(owner=owner, title="Trams", language="en")
    CoachTurn.objects.create(argument=argument, step="claim", cost_usd=Decimal(coach))
    Trial.objects.create(owner=owner, query="Q", status=TrialStatus.SUSTAINED, cost_usd=trial)


def test_it_shows_each_students_spend_in_the_admin_user_list(
    instructor, django_user_model, quota
) -> None:
    ana = django_user_model.objects.create_user("ana")
    _spend(ana, coach="1.25", trial="0.50")

    body = instructor.get("/admin/auth/user/").content.decode()

    assert "Spent today" in body and "Quota left" in body
    assert "$1.75 / $5.00" in body  # today
    assert "$1.75 / $50.00" in body  # this month
    assert "$3.25" in body  # what the daily ceiling leaves
    assert "exempt (staff)" in body  # the instructor's own row


def test_it_reads_the_spend_of_a_whole_page_at_once(instructor, django_user_model, quota) -> None:
    ana = django_user_model.objects.create_user("ana")
    _spend(ana, coach="1")
    # A warm-up request first, so both counted requests read the same things.
    instructor.get("/admin/auth/user/")
    with CaptureQueriesContext(connection) as one_student:
        instructor.get("/admin/auth/user/")
    for name in ("bea", "cai", "dan", "eli"):
        _spend(django_user_model.objects.create_user(name), coach="1")

    with CaptureQueriesContext(connection) as five_students:
        instructor.get("/admin/auth/user/")

    assert len(five_students) == len(one_student)


def test_it_shows_a_students_spend_on_their_admin_page(
    instructor, django_user_model, quota
) -> None:
    ana = django_user_model.objects.create_user("ana")
    _spend(ana, coach="2")

    body = instructor.get(f"/admin/auth/user/{ana.pk}/change/").content.decode()

    assert "AI spend" in body
    assert "today $2.00 / $5.00, this month $2.00 / $50.00; left under the quota: $3.00" in body


def test_it_tells_a_student_what_is_left_without_dollars_or_tokens(
    django_user_model, fake_anthropic, quota
) -> None:
    ana = django_user_model.objects.create_user("ana")
    _spend(ana, coach="1.5")  # 30% of today's, 3% of the month's
    client = Client()
    client.force_login(ana)

    for url in ("/debates/new/", "/trials/", "/coach/", reverse("dashboard")):
        body = client.get(url).content.decode()
        note = html.unescape(body.split('id="allowance">', 1)[1].split("</p>", 1)[0])
        assert "AI allowance left: 70% of today's (it renews in " in note
        assert "and 97% of this month's." in note
        assert "$" not in note and "token" not in note
