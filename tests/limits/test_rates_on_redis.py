"""Rate windows on Redis (limits/rates.py): the same decisions as limits.window, one round trip.

Against a real Redis (REDIS_URL; skipped without it, as tests/services.py
says): random sequences of checks and takes, each compared with the pure
window fed the same moments; the last place taken by many at once; and the
commands a take and a check send.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limits import rates
from limits.window import hit, usage
from tests.limits.rate_checks import assert_a_hit_taken_in_a_failed_block_is_given_back
from tests.services import on_a_redis_cache


@pytest.fixture
def on_redis() -> Iterator[None]:
    with on_a_redis_cache("django.core.cache.backends.redis.RedisCache", name="rates"):
        yield


PERIODS = [1.0, 7.5, 30.0, 60.0]
steps = st.lists(
    st.tuples(
        st.sampled_from(["check", "take"]),
        # Seconds since the last step: often none (same instant), often a whole period or
        # part of one (a hit exactly a period ago has left), sometimes anything.
        # (A clock behind the latest hit: the known answer below.)
        st.one_of(st.just(0.0), st.sampled_from(PERIODS), st.floats(0.0, 30.0)),
    ),
    min_size=1,
    max_size=40,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps, limit=st.integers(1, 5), period=st.sampled_from(PERIODS))
def test_it_decides_as_the_window_does(
    on_redis: None, monkeypatch: pytest.MonkeyPatch, steps: list, limit: int, period: float
) -> None:
    name = f"example-{uuid.uuid4().hex}"
    moment = {"now": 1_800_000_000.25}
    monkeypatch.setattr(rates, "clock", lambda: moment["now"])
    kept: list[float] = []
    for action, gap in steps:
        moment["now"] += float(gap)
        now = moment["now"]
        if action == "take":
            expected, kept = hit(kept, now=now, limit=limit, period=period)
            got = rates.take(name, "7", limit=limit, period=period)
        else:
            expected = usage(kept, now=now, limit=limit, period=period)
            got = rates.check(name, "7", limit=limit, period=period)
        assert got == expected, (action, now)


def test_it_lets_only_the_limit_through_when_many_take_at_once(on_redis: None) -> None:
    name, allowed, start = f"crowd-{uuid.uuid4().hex}", [], threading.Barrier(8)

    def one() -> None:
        start.wait()
        allowed.append(rates.take(name, "7", limit=3, period=60).allowed)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(allowed) == [False] * 5 + [True] * 3


@pytest.fixture
def redis_commands(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The name of every command sent to Redis from now on."""
    sent: list[str] = []
    execute = redis.Redis.execute_command

    def counting(self: redis.Redis, *args: Any, **options: Any) -> Any:
        sent.append(str(args[0]).upper())
        return execute(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counting)
    return sent


def test_it_takes_and_checks_in_one_command_each(on_redis: None, redis_commands: list[str]) -> None:
    sent = redis_commands
    name = f"trips-{uuid.uuid4().hex}"
    assert rates.take(name, "7", limit=2, period=60).allowed
    assert sent == ["EVAL"]
    sent.clear()
    assert rates.check(name, "7", limit=2, period=60).count == 1
    assert sent == ["ZRANGE"]


def test_it_counts_a_hit_recorded_by_a_clock_ahead_of_its_own(
    on_redis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's clock a little ahead: its hit is not "later than now" to ignore."""
    name, moment = f"skew-{uuid.uuid4().hex}", {"now": 1_800_000_000.0}
    monkeypatch.setattr(rates, "clock", lambda: moment["now"])
    assert rates.take(name, "7", limit=2, period=60).allowed
    moment["now"] -= 0.5  # this process's clock, half a second behind
    assert rates.take(name, "7", limit=2, period=60).allowed
    refused = rates.take(name, "7", limit=2, period=60)
    assert not refused.allowed and refused.count == 2
    assert refused.retry_at == 1_800_000_000.0 + 60
    assert rates.check(name, "7", limit=2, period=60) == refused


def test_it_gives_a_hit_back_when_the_block_that_took_it_raises(on_redis: None) -> None:
    assert_a_hit_taken_in_a_failed_block_is_given_back(f"back-{uuid.uuid4().hex}")


@pytest.mark.django_db
def test_a_coach_turn_admission_asks_redis_twice(
    on_redis: None, request: pytest.FixtureRequest, django_user_model
) -> None:
    """The rate (one script) and the spend snapshot (one read), once the snapshot is kept."""
    from limits.services import admit

    student = django_user_model.objects.create_user(f"turns-{uuid.uuid4().hex[:8]}")
    admit(user=student, action="coach_turn", reserve_usd=Decimal("0.01"), snapshot=True)
    sent = request.getfixturevalue("redis_commands")  # counted from here on
    admit(user=student, action="coach_turn", reserve_usd=Decimal("0.01"), snapshot=True)
    assert sent == ["EVAL", "GET"]
