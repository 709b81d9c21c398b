"""Spending and abuse limits: the one call every paid action makes before it pays.

``admit(user=..., action=..., reserve_usd=...)`` runs before a coach turn,
a debate or a trial asks a model anything. It raises :class:`LimitReached`
(a plain sentence that says when the limit renews) when the user

- went over the action's rate (``settings.RATE_LIMITS``: so many per minute
  or hour, in a sliding window kept in the cache, ``limits.rates``: no
  minute or hour, wherever it starts, holds more), or
- would go over the daily or monthly cost quota (``QUOTA_DAILY_USD``,
  ``QUOTA_MONTHLY_USD``) with what the action may still cost, its *reserve*.

Spend is never counted twice or kept on the side: it is read from the
ledgers the apps already write (coach turns, debates and their call ledger,
trials), through *spend sources* each app registers once in its
``AppConfig.ready``. Unfinished work counts at what it may still cost: a
queued or running debate at its whole budget (or its cost, if higher), a
pending or running trial at an estimate. So a student with $5 left cannot
start ten $50 debates, nor two $3 ones at once.

A later format plugs in with ``register_spend_source`` for its ledger;
its rate is one more entry in ``RATE_LIMITS``. The engine's formats are
admitted through ``engine.admission.admit_run``, which adds the cap on
runs in progress and calls ``admit``.

Everything is counted per user in the site's time zone (``TIME_ZONE``):
the day renews at midnight, the month on the 1st. Staff are exempt while
``LIMITS_EXEMPT_STAFF`` is on. Pure arithmetic lives in ``limits.quota``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.money import format_money
from limits import rates
from limits.ledgers import SpendSource, spend_rows
from limits.quota import Allowance, Quota, Spend, allowance, check_quota, day_start, month_start

__all__ = [
    "LimitReached",
    "admit",
    "allowance_for",
    "allowance_sentence",
    "is_exempt",
    "local_now",
    "lock_user",
    "quota",
    "register_spend_source",
    "spend_by_user",
    "wait_words",
    "when",
]

logger = logging.getLogger(__name__)

ZERO = Decimal(0)

# What each rate-limited action is called in the refusal sentence.
ACTION_NAMES = {
    "coach_turn": gettext_lazy("messages to the coach"),
    "debate": gettext_lazy("new debates"),
    "trial": gettext_lazy("new trials"),
    "inquiry": gettext_lazy("new inquiries"),
    "tournament": gettext_lazy("new tournaments"),
    "stress_test": gettext_lazy("new stress tests"),
    "source": gettext_lazy("new sources in case files"),
}


class LimitReached(ValidationError):
    """A limit refuses the action. `message` is a plain sentence for the student.

    `code`: ``rate_limited``, ``quota_exceeded`` or ``too_many_running``;
    `retry_at`: when trying again can succeed (None: when something else ends).
    A ValidationError, so a form can show it as it shows any other refusal.
    """

    def __init__(self, message: str, *, code: str, retry_at: datetime | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_at = retry_at

    def as_json(self) -> dict[str, Any]:
        return {
            "error": self.code,
            "detail": str(self.message),
            "retry_at": self.retry_at.isoformat() if self.retry_at else None,
        }


# --- spend sources ------------------------------------------------------------


_sources: dict[str, SpendSource] = {}


def register_spend_source(
    *,
    name: str,
    model: type[models.Model],
    user_field: str,
    cost: Callable[[], Any],
    created_field: str = "created_at",
) -> None:
    """Count `model`'s rows in every user's spend, on the day and month they were created.

    `cost` returns the expression of what one row costs, or may still cost
    while its work is unfinished (see debates/apps.py). Registering a name
    again replaces the source, so reloading an app is harmless.
    """
    _sources[name] = SpendSource(
        model=model, user_field=user_field, cost=cost, created_field=created_field
    )


def local_now(now: datetime | None = None) -> datetime:
    # The site's day, the same for every user: a student's midnight would let
    # anyone renew their allowance by changing a time zone.
    return timezone.localtime(now or timezone.now(), timezone.get_default_timezone())


def spend_by_user(user_ids: Iterable[int], *, now: datetime | None = None) -> dict[int, Spend]:
    """Today's and this month's spend of each user, from every ledger in one statement."""
    ids = list(user_ids)
    now = local_now(now)
    totals = {pk: [ZERO, ZERO] for pk in ids}
    rows = spend_rows(
        list(_sources.values()), ids, day_from=day_start(now), month_from=month_start(now)
    )
    for user_id, month, today in rows:
        total = totals[user_id]
        total[0] += today or ZERO
        total[1] += month or ZERO
    return {pk: Spend(today=today, month=month) for pk, (today, month) in totals.items()}


def quota() -> Quota:
    """The ceilings in force; 0 in the environment means no ceiling."""
    daily, monthly = Decimal(settings.QUOTA_DAILY_USD), Decimal(settings.QUOTA_MONTHLY_USD)
    return Quota(
        daily_usd=daily if daily > 0 else None, monthly_usd=monthly if monthly > 0 else None
    )


def is_exempt(user: Any) -> bool:
    return bool(getattr(user, "is_staff", False)) and settings.LIMITS_EXEMPT_STAFF


def allowance_for(user: Any, *, now: datetime | None = None) -> Allowance:
    now = local_now(now)
    spend = spend_by_user([user.pk], now=now)[user.pk]
    return allowance(quota=quota(), spend=spend, now=now)


def allowance_sentence(state: Allowance) -> str:
    """What a student has left, in plain words (shares, never tokens or dollars)."""
    day, month = state.used_today_percent, state.used_month_percent
    if month is not None and month >= 100:
        return _("You have used this month's AI allowance. It renews %(when)s.") % {
            "when": when(state.month_resets_at)
        }
    if day is not None and day >= 100:
        return _("You have used today's AI allowance. It renews %(when)s.") % {
            "when": when(state.day_resets_at)
        }
    if day is not None and month is not None:
        return _(
            "AI allowance left: %(day)s%% of today's (it renews in %(wait)s) "
            "and %(month)s%% of this month's."
        ) % {"day": 100 - day, "month": 100 - month, "wait": wait_words(state.day_resets_at)}
    if day is not None:
        return _("AI allowance left: %(day)s%% of today's (it renews in %(wait)s).") % {
            "day": 100 - day,
            "wait": wait_words(state.day_resets_at),
        }
    if month is not None:
        return _("AI allowance left: %(month)s%% of this month's.") % {"month": 100 - month}
    return ""


# --- the check ----------------------------------------------------------------


def wait_words(moment: datetime) -> str:
    """How long until `moment`, in words ("5 hours, 3 minutes", "40 seconds")."""
    local, now = local_now(moment), local_now()
    seconds = max(int((local - now).total_seconds()), 1)
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    return timeuntil(local, now)


def when(moment: datetime) -> str:
    """A reset time in words: how long until then, and the date and time in the site's zone."""
    local = local_now(moment)
    return _("in %(wait)s (%(time)s)") % {
        "wait": wait_words(moment),
        "time": f"{date_format(local, 'DATETIME_FORMAT')} {local.tzname()}",
    }


def _rate(action: str) -> tuple[int, int] | None:
    rate = settings.RATE_LIMITS.get(action) if action else None
    if not rate or int(rate[0]) <= 0:
        return None
    return int(rate[0]), int(rate[1])


def _refuse_rate(action: str, usage: rates.Usage) -> LimitReached:
    retry_at = datetime.fromtimestamp(usage.retry_at or rates.clock(), tz=UTC)
    period = settings.RATE_LIMITS[action][1]
    message = _(
        "You have reached the limit for %(what)s: %(count)s per %(period)s. You can go on %(when)s."
    ) % {
        "count": usage.limit,
        "what": ACTION_NAMES.get(action, _("requests")),
        "period": _("hour") if int(period) >= 3600 else _("minute"),
        "when": when(retry_at),
    }
    return LimitReached(message, code="rate_limited", retry_at=retry_at)


def _cents(amount: Decimal) -> str:
    # What is left is rounded down: a student is never told of a cent they do not have.
    return format_money(amount.quantize(Decimal("0.01"), rounding="ROUND_FLOOR"))


def _refuse_quota(refusal, *, limits: Quota, reserve_usd: Decimal) -> LimitReached:
    ceilings = [c for c in (limits.daily_usd, limits.monthly_usd) if c is not None]
    if ceilings and reserve_usd > min(ceilings):
        # Waiting would not help: no day or month ever has that much.
        message = _(
            "This needs up to %(need)s, more than the whole AI allowance (%(whole)s). "
            "Choose a smaller budget: %(left)s is left now."
        ) % {
            "need": format_money(reserve_usd),
            "whole": format_money(min(ceilings)),
            "left": _cents(refusal.left_usd),
        }
    elif refusal.left_usd > 0 and reserve_usd > refusal.left_usd:
        # Waiting is not the only way: a smaller budget fits now.
        message = _(
            "This needs up to %(need)s of your AI allowance, but only %(left)s is left. "
            "Choose a smaller budget, or wait: the allowance renews %(when)s."
        ) % {
            "need": format_money(reserve_usd),
            "left": _cents(refusal.left_usd),
            "when": when(refusal.resets_at),
        }
    elif refusal.period == "day":
        message = _("You have used today's AI allowance. It renews %(when)s.") % {
            "when": when(refusal.resets_at)
        }
    else:
        message = _("You have used this month's AI allowance. It renews %(when)s.") % {
            "when": when(refusal.resets_at)
        }
    return LimitReached(message, code="quota_exceeded", retry_at=refusal.resets_at)


def lock_user(user: Any) -> None:
    """Serialize one user's admissions inside a transaction (PostgreSQL; SQLite's
    BEGIN IMMEDIATE already lets one writer in at a time)."""
    if transaction.get_connection().in_atomic_block:
        list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))


# A coach turn is frequent and reserves cents: far from a ceiling it may rely
# on a snapshot of the spend up to SNAPSHOT_SECONDS old (one cache read instead
# of a query per ledger). Within SNAPSHOT_MARGIN reserves of a ceiling it reads
# the ledgers. What a stale snapshot can miss is bounded: the coach's own turns
# in those seconds (fewer than the rate allows, each under its reserve), since
# every admission that reads the ledgers drops the snapshot once it commits.
SNAPSHOT_SECONDS = 15
SNAPSHOT_MARGIN = 20


def _snapshot_key(user_id: int, now: datetime) -> str:
    return f"limits:spend:{user_id}:{now:%Y-%m-%d}"


def _cache_call(method: str, *args: Any) -> Any:
    try:
        return getattr(cache, method)(*args)
    except Exception:  # no snapshot is only slower, never wrong
        logger.warning("spend snapshot %s failed", method, exc_info=True)
        return None


def _spend_for_admission(
    user: Any, *, limits: Quota, now: datetime, reserve: Decimal, snapshot: bool
) -> Spend:
    key = _snapshot_key(user.pk, now)
    if snapshot:
        cached = _cache_call("get", key)
        if cached is not None:
            spend = Spend(today=cached[0], month=cached[1])
            left = allowance(quota=limits, spend=spend, now=now).left
            if left is None or left >= SNAPSHOT_MARGIN * max(reserve, Decimal("0.01")):
                return spend
    spend = spend_by_user([user.pk], now=now)[user.pk]
    if snapshot:
        _cache_call("set", key, (spend.today, spend.month), SNAPSHOT_SECONDS)
    else:
        # This admission saves work that counts: the next one must see it.
        transaction.on_commit(lambda: _cache_call("delete", key))
    return spend


def admit(
    *, user: Any, action: str | None, reserve_usd: Decimal | None = None, snapshot: bool = False
) -> None:
    """Let `user` start `action` now, or raise LimitReached. Call it before any paid request.

    `reserve_usd`: what the action may still cost before its own ledger row
    says so (None: it calls no paid model, only the rate applies). The work
    it starts must be saved in the same transaction, so that the next call
    counts it. A refused call does not count towards the rate; `action` None:
    no rate applies (work that goes on, such as an answer to a stress test's
    objection, not a new start). `snapshot`:
    far from the ceilings, a spend read a few seconds ago will do (frequent,
    cheap actions: coach turns; see SNAPSHOT_SECONDS).
    """
    if not getattr(user, "is_authenticated", False) or is_exempt(user):
        return
    rate = _rate(action) if action else None
    # The hit is taken first (one round trip to the cache) and given back if the quota
    # then refuses: a refused call never counts towards the rate.
    hit = (
        rates.taking(action, str(user.pk), limit=rate[0], period=rate[1])
        if rate is not None
        else nullcontext(None)
    )
    with hit as usage:
        if usage is not None and not usage.allowed:
            raise _refuse_rate(action, usage)
        if reserve_usd is not None:
            if not snapshot:
                lock_user(user)
            now, limits = local_now(), quota()
            spend = _spend_for_admission(
                user, limits=limits, now=now, reserve=reserve_usd, snapshot=snapshot
            )
            refusal = check_quota(quota=limits, spend=spend, reserve_usd=reserve_usd, now=now)
            if refusal is not None:
                raise _refuse_quota(refusal, limits=limits, reserve_usd=reserve_usd)
