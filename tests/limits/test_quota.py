"""limits.quota: periods, what is left, and whether a reserve fits (pure, no database)."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from limits.quota import (
    Quota,
    Spend,
    allowance,
    check_quota,
    day_start,
    month_start,
    next_day,
    next_month,
)

NOW = datetime(2026, 11, 23, 14, 30, tzinfo=UTC)
QUOTA = Quota(daily_usd=Decimal("5"), monthly_usd=Decimal("50"))


def test_it_renews_the_day_at_midnight_and_the_month_on_the_first() -> None:
    assert day_start(NOW) == datetime(2026, 11, 23, tzinfo=UTC)
    assert next_day(NOW) == datetime(2026, 11, 24, tzinfo=UTC)
    assert month_start(NOW) == datetime(2026, 11, 1, tzinfo=UTC)
    assert next_month(NOW) == datetime(2026, 12, 1, tzinfo=UTC)
    december = datetime(2026, 12, 31, 23, 59, tzinfo=UTC)
    assert next_day(december) == datetime(2027, 1, 1, tzinfo=UTC)
    assert next_month(december) == datetime(2027, 1, 1, tzinfo=UTC)


def test_it_renews_at_local_midnight_across_a_clock_change() -> None:
    madrid = ZoneInfo("Europe/Madrid")
    # 25 October 2026: clocks go back at 03:00, the day lasts 25 hours.
    evening = datetime(2026, 10, 25, 20, 0, tzinfo=madrid)
    renewal = next_day(evening)
    assert (renewal.year, renewal.month, renewal.day, renewal.hour) == (2026, 10, 26, 0)
    assert renewal.utcoffset() != day_start(evening).utcoffset()
    # Same-zone subtraction is on the wall clock; in UTC the day has its 25 hours.
    elapsed = renewal.astimezone(UTC) - day_start(evening).astimezone(UTC)
    assert elapsed.total_seconds() == 25 * 3600


def test_it_lets_through_what_fits_exactly() -> None:
    spend = Spend(today=Decimal("4.50"), month=Decimal("10"))
    assert check_quota(quota=QUOTA, spend=spend, reserve_usd=Decimal("0.50"), now=NOW) is None


def test_it_refuses_a_reserve_larger_than_what_is_left_today() -> None:
    spend = Spend(today=Decimal("4.50"), month=Decimal("10"))
    refusal = check_quota(quota=QUOTA, spend=spend, reserve_usd=Decimal("0.51"), now=NOW)
    assert refusal is not None
    assert refusal.period == "day"
    assert refusal.resets_at == datetime(2026, 11, 24, tzinfo=UTC)
    assert refusal.left_usd == Decimal("0.50")


def test_it_refuses_anything_once_a_ceiling_is_reached_even_for_free() -> None:
    spend = Spend(today=Decimal("5"), month=Decimal("5"))
    refusal = check_quota(quota=QUOTA, spend=spend, reserve_usd=Decimal("0"), now=NOW)
    assert refusal is not None and refusal.left_usd == 0


def test_it_reports_the_month_when_both_ceilings_refuse() -> None:
    spend = Spend(today=Decimal("5"), month=Decimal("50"))
    refusal = check_quota(quota=QUOTA, spend=spend, reserve_usd=Decimal("1"), now=NOW)
    assert refusal is not None
    assert refusal.period == "month"
    assert refusal.resets_at == datetime(2026, 12, 1, tzinfo=UTC)


def test_it_treats_a_missing_ceiling_as_no_limit() -> None:
    spend = Spend(today=Decimal("1000"), month=Decimal("1000"))
    no_ceiling = Quota(daily_usd=None, monthly_usd=None)
    assert check_quota(quota=no_ceiling, spend=spend, reserve_usd=Decimal("50"), now=NOW) is None
    state = allowance(quota=no_ceiling, spend=spend, now=NOW)
    assert state.left is None and state.used_today_percent is None


def test_it_says_what_is_left_as_shares_that_reach_100_only_when_nothing_is_left() -> None:
    state = allowance(
        quota=QUOTA, spend=Spend(today=Decimal("4.999"), month=Decimal("12.5")), now=NOW
    )
    assert state.used_today_percent == 99
    assert state.used_month_percent == 25
    assert state.left == Decimal("0.001")
    spent = allowance(quota=QUOTA, spend=Spend(today=Decimal("7"), month=Decimal("7")), now=NOW)
    assert spent.used_today_percent == 100
    assert spent.left_today == 0


money = st.decimals(min_value=0, max_value=100, places=2)


@given(today=money, month_extra=money, reserve=money, daily=money, monthly=money)
def test_it_admits_exactly_what_fits_under_both_ceilings(
    today: Decimal, month_extra: Decimal, reserve: Decimal, daily: Decimal, monthly: Decimal
) -> None:
    spend = Spend(today=today, month=today + month_extra)  # the month includes today
    quota = Quota(daily_usd=daily, monthly_usd=monthly)
    refusal = check_quota(quota=quota, spend=spend, reserve_usd=reserve, now=NOW)
    fits = (
        spend.today < daily
        and spend.month < monthly
        and spend.today + reserve <= daily
        and spend.month + reserve <= monthly
    )
    assert (refusal is None) == fits
    if refusal is not None:
        assert refusal.left_usd == max(min(daily - spend.today, monthly - spend.month), 0)
