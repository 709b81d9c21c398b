"""The sliding rate window: no period, wherever it starts, holds more hits than the limit.

Known answers, then properties against an independent check that looks at
every interval of one period in the accepted hits; and the straddle an
outside tester used (6 hits just before an hour turns, 6 just after) through
the admission of every paid format, with the windows' clock moved by hand.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.admission import admit_run
from limits import rates
from limits.services import LimitReached
from limits.window import hit, usage
from tests.limits.rate_checks import assert_a_hit_taken_in_a_failed_block_is_given_back

HOUR = 3600.0


def _run(attempts: list[float], *, limit: int, period: float) -> tuple[list[float], list[float]]:
    """Feed attempts in time order; the accepted and the refused moments."""
    kept: list[float] = []
    accepted, refused = [], []
    for now in attempts:
        decided, kept = hit(kept, now=now, limit=limit, period=period)
        (accepted if decided.allowed else refused).append(now)
    return accepted, refused


def _most_in_any_window(moments: list[float], period: float) -> int:
    """Independent: the most moments in any half-open interval [a, a + period).

    The busiest interval can always start at one of the moments.
    """
    return max((sum(a <= t < a + period for t in moments) for a in moments), default=0)


def test_it_refuses_the_seventh_hit_of_an_hour_and_says_when_the_first_leaves() -> None:
    hits = [0.0, 60.0, 120.0, 180.0, 240.0, 300.0]

    refused = usage(hits, now=301.0, limit=6, period=HOUR)

    assert (refused.count, refused.allowed, refused.retry_at) == (6, False, HOUR)
    assert usage(hits, now=HOUR, limit=6, period=HOUR).allowed  # the first hit has left
    assert not usage(hits, now=HOUR - 0.001, limit=6, period=HOUR).allowed


def test_it_does_not_count_a_refused_hit() -> None:
    kept = [0.0, 1.0]
    decided, after = hit(kept, now=2.0, limit=2, period=10.0)

    assert not decided.allowed
    assert after == kept


def test_it_waits_for_enough_hits_to_leave_when_the_limit_was_lowered() -> None:
    hits = [0.0, 10.0, 20.0, 30.0]  # taken under a limit of 4, now 2

    refused = usage(hits, now=31.0, limit=2, period=100.0)

    assert refused.retry_at == 120.0  # 0, 10 and 20 must leave: then one place is free


def test_it_ignores_hits_recorded_after_the_moment_asked_about() -> None:
    assert usage([5.0, 6.0], now=4.0, limit=1, period=10.0).allowed  # later hits are ignored


moments = st.lists(st.integers(min_value=0, max_value=10_000), max_size=60).map(
    lambda xs: [float(x) for x in sorted(xs)]
)


@given(attempts=moments, limit=st.integers(1, 8), period=st.integers(1, 3000))
def test_it_never_lets_any_period_hold_more_than_the_limit(attempts, limit, period) -> None:
    accepted, _refused = _run(attempts, limit=limit, period=float(period))

    assert _most_in_any_window(accepted, float(period)) <= limit


@given(attempts=moments, limit=st.integers(1, 8), period=st.integers(1, 3000))
def test_it_refuses_only_what_would_overfill_a_period(attempts, limit, period) -> None:
    accepted, refused = _run(attempts, limit=limit, period=float(period))

    for now in refused:
        before = [t for t in accepted if t <= now]
        assert sum(now - period < t for t in before) == limit


@given(attempts=moments, limit=st.integers(1, 8), period=st.integers(1, 3000))
def test_it_says_exactly_when_one_more_fits(attempts, limit, period) -> None:
    accepted, _ = _run(attempts, limit=limit, period=float(period))
    now = (attempts[-1] if attempts else 0.0) + 0.5

    decided = usage(accepted, now=now, limit=limit, period=float(period))

    if decided.allowed:
        return
    assert usage(accepted, now=decided.retry_at, limit=limit, period=float(period)).allowed
    assert not usage(
        accepted, now=decided.retry_at - 0.25, limit=limit, period=float(period)
    ).allowed


# --- through the admission ----------------------------------------------------


@pytest.fixture
def clock(monkeypatch):
    moment = {"now": 1_800_000_000.0 - 600}  # ten minutes before an hour turns (UTC)
    monkeypatch.setattr(rates, "clock", lambda: moment["now"])
    return moment


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["debate", "inquiry", "tournament", "stress_test"])
def test_it_refuses_a_student_who_straddles_the_hours_end(
    action, clock, django_user_model, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, action: (6, 3600)}
    settings.MAX_RUNNING_DEBATES_PER_USER = 0  # the rate alone
    settings.QUOTA_DAILY_USD = settings.QUOTA_MONTHLY_USD = Decimal(0)
    student = django_user_model.objects.create_user("ana")
    assert int(clock["now"]) % 3600 == 3000  # a fixed window would renew at +600 s

    for _ in range(6):  # 10:50 to 10:55
        admit_run(user=student, action=action, reserve_usd=Decimal("0.1"))
        clock["now"] += 60
    clock["now"] += 5 * 60 + 1  # 11:01: a new clock hour

    for _ in range(6):  # 11:01 to 11:34: every one of them still inside the last hour
        with pytest.raises(LimitReached) as refused:
            admit_run(user=student, action=action, reserve_usd=Decimal("0.1"))
        assert refused.value.code == "rate_limited"
        clock["now"] += 6 * 60
    clock["now"] = 1_800_000_000.0 - 600 + 3600  # the first hit has left

    admit_run(user=student, action=action, reserve_usd=Decimal("0.1"))
    with pytest.raises(LimitReached):
        admit_run(user=student, action=action, reserve_usd=Decimal("0.1"))


def test_it_gives_a_hit_back_when_the_block_that_took_it_raises(clock) -> None:
    # This process's memory cache (tests/limits/test_rates_on_redis.py: Redis).
    assert_a_hit_taken_in_a_failed_block_is_given_back(f"back-{clock['now']}")


@pytest.mark.django_db
def test_a_call_the_quota_refuses_does_not_count_towards_the_rate(
    clock, django_user_model, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "debate": (2, 3600)}
    settings.MAX_RUNNING_DEBATES_PER_USER = 0
    settings.QUOTA_DAILY_USD = Decimal("0.25")
    student = django_user_model.objects.create_user("bo")
    for _ in range(3):
        with pytest.raises(LimitReached) as refused:
            admit_run(user=student, action="debate", reserve_usd=Decimal("1"))
        assert refused.value.code == "quota_exceeded"
    settings.QUOTA_DAILY_USD = Decimal("5")
    admit_run(user=student, action="debate", reserve_usd=Decimal("0.1"))
    admit_run(user=student, action="debate", reserve_usd=Decimal("0.1"))
    with pytest.raises(LimitReached) as refused:
        admit_run(user=student, action="debate", reserve_usd=Decimal("0.1"))
    assert refused.value.code == "rate_limited"
