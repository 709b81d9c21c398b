"""Instructors see each student's AI spend in the admin's user list and user page.

Columns: spent today and this month against the quota, and what is left.
The list computes the spend of the whole page at once (one grouped query per
spend source), not one query per row and column.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.money import format_money
from limits.quota import Spend, allowance
from limits.services import is_exempt, local_now, quota, spend_by_user

User = get_user_model()

if admin.site.is_registered(User):
    admin.site.unregister(User)


def _usd(amount: Decimal | None) -> str:
    return "—" if amount is None else format_money(amount)


@admin.register(User)
class UserSpendAdmin(UserAdmin):
    list_display = (*UserAdmin.list_display, "spent_today", "spent_this_month", "left_now")
    readonly_fields = (*UserAdmin.readonly_fields, "ai_spend")
    fieldsets = (*UserAdmin.fieldsets, (_("AI spend"), {"fields": ("ai_spend",)}))

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        changelist = super().get_changelist_instance(request)
        users = list(changelist.result_list)  # fills the page's cache; rows reuse it
        spend = spend_by_user([user.pk for user in users])
        for user in users:
            user.ai_spend_now = spend.get(user.pk, Spend())
        return changelist

    def _spend(self, user: Any) -> Spend:
        spend = getattr(user, "ai_spend_now", None)
        if spend is None:
            spend = user.ai_spend_now = spend_by_user([user.pk])[user.pk]
        return spend

    @admin.display(description=_("spent today"))
    def spent_today(self, user: Any) -> str:
        ceiling = quota().daily_usd
        spent = _usd(self._spend(user).today)
        return f"{spent} / {_usd(ceiling)}" if ceiling is not None else spent

    @admin.display(description=_("spent this month"))
    def spent_this_month(self, user: Any) -> str:
        ceiling = quota().monthly_usd
        spent = _usd(self._spend(user).month)
        return f"{spent} / {_usd(ceiling)}" if ceiling is not None else spent

    @admin.display(description=_("quota left"))
    def left_now(self, user: Any) -> str:
        if is_exempt(user):
            return gettext("exempt (staff)")
        state = allowance(quota=quota(), spend=self._spend(user), now=local_now())
        return _usd(state.left)

    @admin.display(description=_("AI spend"))
    def ai_spend(self, user: Any) -> str:
        if user.pk is None:
            return "—"
        return gettext("today %(today)s, this month %(month)s; left under the quota: %(left)s") % {
            "today": self.spent_today(user),
            "month": self.spent_this_month(user),
            "left": self.left_now(user),
        }
