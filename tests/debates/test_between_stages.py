"""What the engine reads back between stages: the fields others change, the rest left alone."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from engine.between_stages import BETWEEN_STAGES, read_between_stages
from engine.models import Debate
from tests.debates.factories import make_debate

pytestmark = pytest.mark.django_db


def test_it_reads_what_others_changed_in_one_statement() -> None:
    debate = make_debate()
    stale = Debate.objects.get(pk=debate.pk)
    asked = timezone.now() - timedelta(seconds=3)
    Debate.objects.filter(pk=debate.pk).update(
        stop_requested_at=asked,
        cost_usd=Decimal("0.123456"),
        budget_usd=Decimal("2.50"),
        max_rounds=5,
        topic="changed, but not read between stages",
    )
    with CaptureQueriesContext(connection) as queries:
        read_between_stages(stale)
    assert len(queries) <= 1
    fresh = Debate.objects.get(pk=debate.pk)
    for name in BETWEEN_STAGES:
        assert getattr(stale, name) == getattr(fresh, name), name
        assert type(getattr(stale, name)) is type(getattr(fresh, name)), name
    assert stale.stop_requested_at == asked
    assert stale.topic != fresh.topic  # the stages work on the row they lock, not on this one


def test_it_fails_loudly_for_a_run_that_is_gone() -> None:
    debate = make_debate()
    Debate.objects.filter(pk=debate.pk).delete()
    with pytest.raises(Debate.DoesNotExist):
        read_between_stages(debate)
