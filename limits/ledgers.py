"""What each user spent, read from every registered ledger in one statement.

Every admission of paid work reads the user's spend from the ledgers the apps
register (``limits.services.register_spend_source``): one grouped query per
ledger, a sum of what each row cost (or may still cost), this month and today.
The grouped queries are put together in one ``UNION ALL`` (a row per ledger
that has rows for a user), so an admission waits on one round trip, not one
per ledger, however many ledgers and users it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import router
from django.db.models import DecimalField, Model, Q, QuerySet, Sum

__all__ = ["SpendSource", "spend_rows"]

_MONEY = DecimalField(max_digits=14, decimal_places=6)


@dataclass(frozen=True, slots=True)
class SpendSource:
    model: type[Model]
    user_field: str  # lookup from a row to its user's id: "owner", "argument__owner"
    cost: Callable[[], Any]  # the row's cost as a query expression (built per query)
    created_field: str = "created_at"

    def rows(
        self, user_ids: Sequence[int], *, day_from: datetime, month_from: datetime
    ) -> QuerySet:
        """(user id, this month's sum, today's sum) per user of `user_ids` with rows."""
        cost = self.cost()
        return (
            self.model._default_manager.filter(
                **{f"{self.user_field}__in": list(user_ids)},
                **{f"{self.created_field}__gte": month_from},
            )
            .order_by()
            .values_list(self.user_field)
            .annotate(
                month=Sum(cost, output_field=_MONEY),
                today=Sum(
                    cost, filter=Q(**{f"{self.created_field}__gte": day_from}), output_field=_MONEY
                ),
            )
        )


def spend_rows(
    sources: Sequence[SpendSource],
    user_ids: Sequence[int],
    *,
    day_from: datetime,
    month_from: datetime,
) -> list[tuple[int, Decimal | None, Decimal | None]]:
    """(user id, month's sum, today's sum): a row per ledger that has rows for a user.

    One statement when every ledger lives in one database; else one per ledger.
    """
    if not sources or not user_ids:
        return []
    queries = [s.rows(user_ids, day_from=day_from, month_from=month_from) for s in sources]
    if len({router.db_for_read(source.model) for source in sources}) > 1:
        return [row for query in queries for row in query]
    first, *rest = queries
    return list(first.union(*rest, all=True) if rest else first)
