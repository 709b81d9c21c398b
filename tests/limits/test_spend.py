"""Spend is read from the ledgers the apps write, and unfinished work counts at its reserve."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from coach.models import CoachTurn
from coach.services import create_argument
from debates.models import Debate, DebateStatus
from limits.services import allowance_for, spend_by_user
from trials.models import Trial, TrialStatus
from trials.services import trial_reserve_usd

pytestmark = pytest.mark.django_db


def _turn(owner, cost: str, *, when=None) -> CoachTurn:
    argument = create_argument(owner=owner, title="Trams", language="en")
    turn = CoachTurn.objects.create(argument=argument, step="claim", cost_usd=Decimal(cost))
    if when is not None:
        CoachTurn.objects.filter(pk=turn.pk).update(created_at=when)
    return turn


def _debate(creator, *, status, cost: str, budget: str, when=None) -> Debate:
    debate = Debate.objects.create(
        topic="Trams", creator=creator, status=status, cost_usd=cost, budget_usd=budget
    )
    if when is not None:
        Debate.objects.filter(pk=debate.pk).update(created_at=when)
    return debate


def test_it_adds_up_coach_turns_debates_and_trials(django_user_model) -> None:
    ana = django_user_model.objects.create_user("ana")
    _turn(ana, "0.25")
    _turn(ana, "0.05")  # a failed turn was paid too
    _debate(ana, status=DebateStatus.DONE, cost="1.10", budget="3")
    Trial.objects.create(owner=ana, query="Q", status=TrialStatus.SUSTAINED, cost_usd="0.40")

    spend = spend_by_user([ana.pk])[ana.pk]

    assert spend.today == spend.month == Decimal("1.80")


def test_it_counts_unfinished_work_at_its_reserve(django_user_model) -> None:
    ana = django_user_model.objects.create_user("ana")
    _debate(ana, status=DebateStatus.QUEUED, cost="0", budget="3")
    _debate(ana, status=DebateStatus.RUNNING, cost="2.50", budget="2")  # over its estimate
    _debate(ana, status=DebateStatus.FAILED, cost="0.30", budget="9")
    Trial.objects.create(owner=ana, query="Q", status=TrialStatus.RUNNING, cost_usd="0.01")

    spend = spend_by_user([ana.pk])[ana.pk]

    assert spend.today == Decimal("3") + Decimal("2.50") + Decimal("0.30") + trial_reserve_usd()


def test_it_counts_yesterday_in_the_month_only_and_last_month_not_at_all(
    django_user_model, settings
) -> None:
    settings.QUOTA_DAILY_USD = Decimal("5")
    settings.QUOTA_MONTHLY_USD = Decimal("50")
    ana = django_user_model.objects.create_user("ana")
    now = timezone.localtime()
    month_start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    _turn(ana, "1", when=now)
    earlier_this_month = max(month_start, now - timedelta(days=1))
    if earlier_this_month.date() == now.date():  # the 1st: nothing earlier this month
        earlier_this_month = month_start
    _turn(ana, "2", when=earlier_this_month)
    _debate(
        ana, status=DebateStatus.DONE, cost="7", budget="7", when=month_start - timedelta(hours=1)
    )

    state = allowance_for(ana)

    today = Decimal("1") + (Decimal("2") if earlier_this_month.date() == now.date() else 0)
    assert state.spend.today == today
    assert state.spend.month == Decimal("3")
    assert state.left_today == Decimal("5") - today
    assert state.left_month == Decimal("47")


def test_it_keeps_each_users_spend_apart(django_user_model) -> None:
    ana = django_user_model.objects.create_user("ana")
    bea = django_user_model.objects.create_user("bea")
    _turn(ana, "1.5")
    _turn(bea, "0.5")

    spend = spend_by_user([ana.pk, bea.pk])

    assert spend[ana.pk].today == Decimal("1.5")
    assert spend[bea.pk].today == Decimal("0.5")
