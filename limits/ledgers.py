"""What each user spent, read from every registered ledger in one statement.

Every admission of paid work reads the user's spend from the ledgers the apps
register (``limits.services.register_spend_source``): one grouped query per
ledger, a sum of what each row cost (or may still cost), this month and today.
Built by the ORM, the four grouped queries of today's ledgers cost about 5 ms
of the server's CPU to compile, for a database that answers in a fraction of
that; and a coach turn reads them whenever the spend snapshot is older than a
few seconds, which for a student who thinks before writing is every turn.

So the ledgers are read in one ``UNION ALL`` statement (a row per ledger that
has rows), and one user's statement is compiled once per database, day and set
of ledgers: the ORM builds it with a sentinel where the user's id goes, and
each read runs that SQL with the id in the sentinel's place and the rows through
the converters the ORM's query would apply (``SQLCompiler.get_converters``,
Django 5.2). Reading several users (the admin's list) builds the union anew.

A statement is compiled under a lock: when a process starts, or a new day
begins, the first turns of every student in a class arrive together, and
without it each request thread compiled the same statement at once (15 of 20
in one benchmark run, about 5 ms of CPU each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from threading import Lock
from typing import Any

from django.db import connections, router
from django.db.models import DecimalField, Model, Q, QuerySet, Sum

__all__ = ["SpendSource", "spend_rows"]

_MONEY = DecimalField(max_digits=14, decimal_places=6)

# Where one user's id goes in the statement compiled once: never a primary key.
_SENTINEL = -987_654_321

# Statements compiled for one user, by database, day, month and ledgers; a new
# day makes new ones, so only the latest few are kept.
_MAX_STATEMENTS = 8
_NOT_YET = object()


@dataclass(frozen=True, slots=True)
class SpendSource:
    model: type[Model]
    user_field: str  # lookup from a row to its user's id: "owner", "argument__owner"
    cost: Callable[[], Any]  # the row's cost as a query expression (built per query)
    created_field: str = "created_at"

    def rows(self, users: dict[str, Any], *, day_from: datetime, month_from: datetime) -> QuerySet:
        """(user id, this month's sum, today's sum) per user matching `users` (a filter)."""
        cost = self.cost()
        return (
            self.model._default_manager.filter(
                **{self.user_field + key: value for key, value in users.items()},
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


@dataclass(frozen=True, slots=True)
class _Statement:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[int, ...]  # the positions of the user's id in `params`
    selected: tuple[Any, ...]  # the expressions of the columns, for their converters


_statements: dict[tuple, _Statement | None] = {}
_compiling = Lock()


def _alias(sources: Sequence[SpendSource]) -> str | None:
    """The one database every ledger is read from, or None if they are spread out."""
    aliases = {router.db_for_read(source.model) for source in sources}
    return aliases.pop() if len(aliases) == 1 else None


def _union(
    sources: Sequence[SpendSource],
    users: dict[str, Any],
    *,
    day_from: datetime,
    month_from: datetime,
) -> QuerySet:
    first, *rest = (s.rows(users, day_from=day_from, month_from=month_from) for s in sources)
    return first.union(*rest, all=True) if rest else first


def _compile(
    sources: Sequence[SpendSource], alias: str, *, day_from: datetime, month_from: datetime
) -> _Statement | None:
    query = _union(sources, {"": _SENTINEL}, day_from=day_from, month_from=month_from).query
    compiler = query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    slots = tuple(i for i, value in enumerate(params) if value == _SENTINEL)
    if len(slots) != len(sources):
        return None  # the id did not go in as itself: read through the ORM instead
    selected = tuple(column[0] for column in compiler.select[: compiler.col_count])
    return _Statement(sql=sql, params=tuple(params), slots=slots, selected=selected)


def _statement(
    sources: tuple[SpendSource, ...], alias: str, *, day_from: datetime, month_from: datetime
) -> _Statement | None:
    key = (alias, connections[alias].vendor, day_from, month_from, sources)
    # Request threads share the dict: read it once (another thread may clear it).
    statement = _statements.get(key, _NOT_YET)
    if statement is not _NOT_YET:
        return statement
    with _compiling:  # one thread compiles; the others wait for it (module docstring)
        statement = _statements.get(key, _NOT_YET)
        if statement is _NOT_YET:
            statement = _compile(sources, alias, day_from=day_from, month_from=month_from)
            if len(_statements) >= _MAX_STATEMENTS:
                _statements.clear()
            _statements[key] = statement
    return statement


def _converted(rows: Iterable[tuple], statement: _Statement, alias: str) -> Iterator[tuple]:
    # SQLCompiler.get_converters / apply_converters, with this thread's connection (the
    # statement may have been compiled on another's).
    connection = connections[alias]
    columns = [
        (column, expression, found)
        for column, expression in enumerate(statement.selected)
        if (
            found := connection.ops.get_db_converters(expression)
            + expression.get_db_converters(connection)
        )
    ]
    for row in rows:
        values = list(row)
        for column, expression, converters in columns:
            for converter in converters:
                values[column] = converter(values[column], expression, connection)
        yield tuple(values)


def spend_rows(
    sources: Sequence[SpendSource],
    user_ids: Sequence[int],
    *,
    day_from: datetime,
    month_from: datetime,
) -> list[tuple[int, Decimal | None, Decimal | None]]:
    """(user id, month's sum, today's sum): a row per ledger that has rows for a user.

    One statement when every ledger lives in one database; for one user, a
    statement compiled once per day (module docstring).
    """
    sources = tuple(sources)
    if not sources or not user_ids:
        return []
    alias = _alias(sources)
    if alias is None:
        return [
            row
            for source in sources
            for row in source.rows(
                {"__in": list(user_ids)}, day_from=day_from, month_from=month_from
            )
        ]
    if len(user_ids) == 1:
        statement = _statement(sources, alias, day_from=day_from, month_from=month_from)
        if statement is not None:
            params = list(statement.params)
            for slot in statement.slots:
                params[slot] = user_ids[0]
            with connections[alias].cursor() as cursor:
                cursor.execute(statement.sql, params)
                return list(_converted(cursor.fetchall(), statement, alias))
    union = _union(sources, {"__in": list(user_ids)}, day_from=day_from, month_from=month_from)
    return list(union.using(alias))
