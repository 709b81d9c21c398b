"""The coach turn's statements as SQL written once, not compiled by the ORM every turn.

A turn runs the same short statements every time: load the argument, store
the student's message, read the transcript (its latest messages and the
student's on the step, in one statement), store the reply and the turn
record. The ORM builds and compiles each queryset anew on every evaluation,
and for these statements that costs the server more CPU than the database
takes to answer them: about half of `coach.turn_store.begin_turn`'s CPU,
profiled (docs/coach.md, "Speed"). Here each statement's text is made once
per model and database vendor from the models' own table and column names,
quoted by the backend (as ``engine.events._next_seq`` does), and run on the
connection's cursor. Values still go through each field's ``pre_save`` and
``get_db_prep_save`` and rows through the converters a query applies
(``from_row``), so what is stored and read is what the ORM would store and
read. The reads are here; the inserts (the message, the reply, the turn
record) are ``config.sql_rows.insert``, which other hot paths share. Both
databases take the same text: PostgreSQL, and SQLite 3.35 or later for
``RETURNING`` (older ones fall back to ``save()``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.db import connections, router

from coach.models import Argument, CoachMessage, Role
from coach.policy import JoinedRead, Policy, joined_reads, policy_for
from config.sql_rows import columns, from_row, insert, insert_statement, inserted, quote_for

__all__ = ["load_argument_and_policy", "store_and_read_transcript", "transcript"]


@cache
def _argument_and_rules_plan(
    alias: str, vendor: str, reads: tuple[JoinedRead, ...]
) -> tuple[str, tuple[Any, ...]]:
    """The argument's row with the columns of every joined policy read (coach.policy), and
    the reads' own parameters, which come before the argument's id and owner."""
    quote = quote_for(alias)
    meta = Argument._meta
    table = quote(meta.db_table)
    parts = [read.sql(alias, f"{table}.{quote(meta.pk.column)}") for read in reads]
    select = ", ".join([columns(Argument, alias, meta.db_table), *(p.columns for p in parts)])
    joins = " ".join(p.joins for p in parts)
    sql = (
        f"SELECT {select} FROM {table} {joins} "
        f"WHERE {table}.{quote(meta.pk.column)} = %s "
        f"AND {table}.{quote(meta.get_field('owner').column)} = %s"
    )
    params = [param for p in parts for param in p.column_params]
    params += [param for p in parts for param in p.join_params]
    return sql, tuple(params)


def load_argument_and_policy(*, owner: Any, argument_id: int) -> tuple[Argument, Policy] | None:
    """``Argument.objects.for_user(owner).filter(pk=argument_id).first()`` and
    `coach.policy.policy_for` of it, in one statement written once: the policy's sources
    that say how (an assignment's rules) are read with the argument, one round trip where
    there were two. None when `owner` has no such argument."""
    if not getattr(owner, "is_authenticated", False):
        return None
    alias = router.db_for_read(Argument)
    reads = joined_reads()
    connection = connections[alias]
    sql, params = _argument_and_rules_plan(alias, connection.vendor, reads)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, argument_id, owner.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    width = len(Argument._meta.concrete_fields)
    argument = from_row(Argument, alias, row[:width])
    joined: dict[JoinedRead, tuple[Any, ...]] = {}
    for read in reads:
        joined[read] = tuple(row[width : width + read.width])
        width += read.width
    return argument, policy_for(argument, joined=joined)


@cache
def _transcript_sql(alias: str, vendor: str) -> str:
    """The transcript's two reads in one statement: the latest messages (part 0) and the
    student's messages on one step (part 1), each row with its part, time and id."""
    quote = quote_for(alias)
    meta = CoachMessage._meta

    def column(name: str) -> str:
        return quote(meta.get_field(name).column)

    table, pk, argument = quote(meta.db_table), quote(meta.pk.column), column("argument")
    role, text, created = column("role"), column("text"), column("created_at")
    return (
        f"SELECT 0, {role}, {text}, {created}, {pk} FROM ("
        f"SELECT {role}, {text}, {created}, {pk} FROM {table} "
        f"WHERE {argument} = %s AND {pk} < %s ORDER BY {created} DESC, {pk} DESC LIMIT %s"
        f") {quote('latest')} "
        f"UNION ALL SELECT 1, {role}, {text}, {created}, {pk} FROM {table} "
        f"WHERE {argument} = %s AND {pk} < %s AND {role} = %s AND {column('step')} = %s"
    )


# Past every message id: "all of them" where the student's message was not stored.
_NO_BOUND = 2**62


def transcript(
    *, argument_id: int, before_id: int | None, limit: int, step: str
) -> tuple[list[tuple[str, str]], list[str]]:
    """What the turn reads of the transcript before `before_id` (None: all of it), in one
    statement: (role, text) of the `limit` latest messages, and the texts of the student's
    messages on `step`, each oldest first."""
    alias = router.db_for_read(CoachMessage)
    bound = before_id or _NO_BOUND
    with connections[alias].cursor() as cursor:
        cursor.execute(
            _transcript_sql(alias, connections[alias].vendor),
            _transcript_params(argument_id, bound, limit, step),
        )
        rows = cursor.fetchall()
    return _transcript_parts(rows)


def _transcript_params(argument_id: int, bound: int, limit: int, step: str) -> list[Any]:
    return [argument_id, bound, limit, argument_id, bound, Role.USER.value, step]


def _transcript_parts(rows: list[tuple]) -> tuple[list[tuple[str, str]], list[str]]:
    # A UNION has no order of its own: put each part in the order the ORM queries had.
    latest = sorted((row for row in rows if row[0] == 0), key=lambda row: (row[3], row[4]))
    on_step = sorted((row for row in rows if row[0] == 1), key=lambda row: row[4])
    return [(row[1], row[2]) for row in latest], [row[2] for row in on_step]


@cache
def _stored_transcript_sql(alias: str, vendor: str, insert_sql: str) -> str:
    """PostgreSQL: the message's INSERT in a WITH and the transcript read beside it. The read
    sees the table as it was when the statement began, so without the new message; the
    LEFT JOIN gives the new key even when the transcript is empty."""
    quote = quote_for(alias)
    stored, read = quote("stored"), quote("read")
    return (
        f"WITH {stored} AS ({insert_sql}) "
        f"SELECT {stored}.{quote(CoachMessage._meta.pk.column)}, {read}.* FROM {stored} "
        f"LEFT JOIN ({_transcript_sql(alias, vendor)}) {read} ON TRUE"
    )


def store_and_read_transcript(
    message: CoachMessage, *, limit: int, step: str
) -> tuple[list[tuple[str, str]], list[str]]:
    """``insert(message)``, then ``transcript`` of what came before it: on PostgreSQL in one
    statement (one round trip where there were two), elsewhere in two."""
    alias = router.db_for_write(CoachMessage)
    connection = connections[alias]
    if connection.vendor != "postgresql":
        insert(message)
        return transcript(
            argument_id=message.argument_id, before_id=message.pk, limit=limit, step=step
        )
    insert_sql, insert_params = insert_statement(message)
    sql = _stored_transcript_sql(alias, connection.vendor, insert_sql)
    params = insert_params + _transcript_params(message.argument_id, _NO_BOUND, limit, step)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    inserted(message, rows[0][0])
    return _transcript_parts([row[1:] for row in rows if row[1] is not None])
