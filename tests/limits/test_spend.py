"""Spend is read from the ledgers the apps write, unfinished work counts at its reserve,
and a coach turn far from the ceiling is admitted from a recent snapshot."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import timezone

from coach.ai import turn_reserve_usd
from coach.models import CoachTurn
from coach.services import admit_turn, create_argument
from engine.models import Debate, DebateStatus
from limits.services import (
    SNAPSHOT_MARGIN,
    LimitReached,
    admit,
    allowance_for,
    spend_by_user,
)
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


@pytest.fixture
def ai_coach(fake_anthropic, settings):
    settings.QUOTA_DAILY_USD = Decimal("5")
    settings.QUOTA_MONTHLY_USD = Decimal("0")
    return fake_anthropic


def test_it_admits_a_coach_turn_from_a_snapshot_far_from_the_ceiling(
    django_user_model, ai_coach, django_assert_num_queries
) -> None:
    ana = django_user_model.objects.create_user("ana")
    admit_turn(user=ana)  # reads the ledgers once

    with django_assert_num_queries(0):
        admit_turn(user=ana)


def test_it_reads_the_ledgers_near_the_ceiling(django_user_model, ai_coach) -> None:
    ana = django_user_model.objects.create_user("ana")
    _turn(ana, str(Decimal("5") - SNAPSHOT_MARGIN * turn_reserve_usd() / 2))
    admit_turn(user=ana)  # near the ceiling already: the snapshot will not be trusted
    _turn(ana, "1")

    with pytest.raises(LimitReached):
        admit_turn(user=ana)


def test_it_drops_the_snapshot_once_a_debate_is_admitted(
    django_user_model, ai_coach, django_capture_on_commit_callbacks
) -> None:
    ana = django_user_model.objects.create_user("ana")
    admit_turn(user=ana)  # snapshot: nothing spent
    # What create_debate does, without handing the debate to anyone to run.
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        admit(user=ana, action="debate", reserve_usd=Decimal("4.99"))
        _debate(ana, status=DebateStatus.QUEUED, cost="0", budget="4.99")

    with pytest.raises(LimitReached) as refused:
        admit_turn(user=ana)  # $0.01 left: not enough for one turn
    assert refused.value.code == "quota_exceeded"
