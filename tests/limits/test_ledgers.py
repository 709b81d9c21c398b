"""Every ledger read in one statement, however many users.

The reference is one grouped query per ledger, summed. Random ledgers, several
users, rows this month and earlier, both databases.
"""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from coach.models import CoachTurn
from coach.services import create_argument
from engine.models import Debate, DebateStatus
from limits.quota import day_start, month_start
from limits.services import _sources, local_now, spend_by_user
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db

ZERO = Decimal(0)


def _reference(user_ids: list[int], *, now) -> dict[int, tuple[Decimal, Decimal]]:
    """One grouped query per ledger, as `spend_by_user` read them before."""
    day_from, month_from = day_start(now), month_start(now)
    totals = {pk: [ZERO, ZERO] for pk in user_ids}
    for source in _sources.values():
        for user_id, month, today in source.rows(
            user_ids, day_from=day_from, month_from=month_from
        ):
            totals[user_id][0] += today or ZERO
            totals[user_id][1] += month or ZERO
    return {pk: (today, month) for pk, (today, month) in totals.items()}


def _random_ledgers(rng: random.Random, users: list) -> None:
    now = local_now()
    moments = [
        now,
        now - timedelta(hours=rng.randint(1, 30)),
        now - timedelta(days=rng.randint(2, 40)),
    ]

    def cents() -> str:
        return f"{rng.randint(0, 500) / 100:.2f}"

    for _ in range(rng.randint(0, 8)):
        owner, when = rng.choice(users), rng.choice(moments)
        kind = rng.choice(["turn", "debate", "trial"])
        if kind == "turn":
            argument = create_argument(owner=owner, title="Trams", language="en")
            row = CoachTurn.objects.create(argument=argument, step="claim", cost_usd=cents())
        elif kind == "debate":
            status = rng.choice([DebateStatus.QUEUED, DebateStatus.RUNNING, DebateStatus.DONE])
            row = Debate.objects.create(
                topic="Trams", creator=owner, status=status, cost_usd=cents(), budget_usd=cents()
            )
        else:
            status = rng.choice([TrialStatus.RUNNING, TrialStatus.SUSTAINED])
            row = Trial.objects.create(owner=owner, query="Q", status=status, cost_usd=cents())
        type(row).objects.filter(pk=row.pk).update(created_at=when)


@pytest.mark.parametrize("seed", range(12))
def test_it_adds_up_what_one_grouped_query_per_ledger_did(django_user_model, seed) -> None:
    rng = random.Random(seed)
    users = [django_user_model.objects.create_user(f"u{seed}-{i}") for i in range(3)]
    _random_ledgers(rng, users)
    now = local_now()
    ids = [user.pk for user in users]

    expected = _reference(ids, now=now)

    for pk in ids:
        spend = spend_by_user([pk], now=now)[pk]
        assert (spend.today, spend.month) == expected[pk]
    together = spend_by_user(ids, now=now)
    assert {pk: (s.today, s.month) for pk, s in together.items()} == expected


def test_it_reads_every_ledger_in_one_statement(django_user_model) -> None:
    ana = django_user_model.objects.create_user("ana")
    bea = django_user_model.objects.create_user("bea")
    argument = create_argument(owner=ana, title="Trams", language="en")
    CoachTurn.objects.create(argument=argument, step="claim", cost_usd="0.25")
    Debate.objects.create(
        topic="Trams", creator=ana, status=DebateStatus.DONE, cost_usd="1", budget_usd="2"
    )

    with CaptureQueriesContext(connection) as one:
        spend_by_user([ana.pk])
    with CaptureQueriesContext(connection) as two:
        spend_by_user([ana.pk, bea.pk])

    assert len(one) == len(two) == 1
    assert one[0]["sql"].count("UNION ALL") == len(_sources) - 1
