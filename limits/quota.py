"""The cost quota as pure arithmetic: periods, what is left, and whether a call fits.

No Django, no database: `limits.services` reads the spend from the apps'
ledgers and hands it here. Every datetime is aware and already in the time
zone whose midnight starts a new day (`settings.TIME_ZONE`).

A quota is a daily and a monthly ceiling in USD; ``None`` means no ceiling.
A paid action is let through when what it may still cost (its *reserve*:
a debate's whole budget, an estimate of one coach turn or trial) fits under
both ceilings on top of what is already spent or reserved.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Literal

__all__ = [
    "Allowance",
    "Period",
    "Quota",
    "QuotaRefusal",
    "Spend",
    "allowance",
    "check_quota",
    "day_start",
    "month_start",
    "next_day",
    "next_month",
]

Period = Literal["day", "month"]
ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class Quota:
    """Ceilings in USD; None: no ceiling for that period."""

    daily_usd: Decimal | None = None
    monthly_usd: Decimal | None = None


@dataclass(frozen=True, slots=True)
class Spend:
    """What one user spent (or has reserved) since the start of the day and of the month."""

    today: Decimal = ZERO
    month: Decimal = ZERO


@dataclass(frozen=True, slots=True)
class QuotaRefusal:
    """Why a paid action does not fit, and when waiting helps.

    `period` is the ceiling that binds longest; `resets_at` is when it
    renews. `left_usd` is what is left under both ceilings now (0 when a
    ceiling is already reached): a debate can be started again with a budget
    up to that much.
    """

    period: Period
    resets_at: datetime
    left_usd: Decimal


@dataclass(frozen=True, slots=True)
class Allowance:
    """What a user has left, for pages and the admin. Shares are 0-100 (percent used)."""

    quota: Quota
    spend: Spend
    day_resets_at: datetime
    month_resets_at: datetime

    @property
    def left_today(self) -> Decimal | None:
        return _left(self.quota.daily_usd, self.spend.today)

    @property
    def left_month(self) -> Decimal | None:
        return _left(self.quota.monthly_usd, self.spend.month)

    @property
    def left(self) -> Decimal | None:
        """What is left under both ceilings; None when there is no ceiling at all."""
        lefts = [x for x in (self.left_today, self.left_month) if x is not None]
        return min(lefts) if lefts else None

    @property
    def used_today_percent(self) -> int | None:
        return _percent(self.quota.daily_usd, self.spend.today)

    @property
    def used_month_percent(self) -> int | None:
        return _percent(self.quota.monthly_usd, self.spend.month)


def _left(ceiling: Decimal | None, spent: Decimal) -> Decimal | None:
    if ceiling is None:
        return None
    return max(ceiling - spent, ZERO)


def _percent(ceiling: Decimal | None, spent: Decimal) -> int | None:
    if ceiling is None or ceiling <= 0:
        return None
    # Rounded down below 100 so "100%" only ever means nothing is left.
    share = int(spent * 100 / ceiling)
    return min(share, 100) if spent < ceiling else 100


def day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def month_start(now: datetime) -> datetime:
    return day_start(now).replace(day=1)


def next_day(now: datetime) -> datetime:
    """The next midnight. Aware datetimes add on the wall clock, so a DST day is still one day."""
    return day_start(now) + timedelta(days=1)


def next_month(now: datetime) -> datetime:
    return (month_start(now) + timedelta(days=32)).replace(day=1)


def allowance(*, quota: Quota, spend: Spend, now: datetime) -> Allowance:
    return Allowance(
        quota=quota, spend=spend, day_resets_at=next_day(now), month_resets_at=next_month(now)
    )


def check_quota(
    *, quota: Quota, spend: Spend, reserve_usd: Decimal, now: datetime
) -> QuotaRefusal | None:
    """None when `reserve_usd` more fits under both ceilings, else why not.

    An action that costs nothing up front (reserve 0) is refused only once a
    ceiling is reached. When both ceilings refuse, the month's is reported:
    tomorrow would not help.
    """
    state = allowance(quota=quota, spend=spend, now=now)
    refused: list[tuple[Period, datetime]] = []
    for period, left, resets_at in (
        ("month", state.left_month, state.month_resets_at),
        ("day", state.left_today, state.day_resets_at),
    ):
        if left is None:
            continue
        if left <= 0 or reserve_usd > left:
            refused.append((period, resets_at))
    if not refused:
        return None
    period, resets_at = refused[0]
    return QuotaRefusal(period=period, resets_at=resets_at, left_usd=state.left or ZERO)
