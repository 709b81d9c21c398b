"""Emptying the database after a transactional test: only the tables the test wrote to.

Django's TransactionTestCase empties the database after each test with `flush`:
TRUNCATE of every table on PostgreSQL (each table and index gets a new file, all
synced at commit), DELETE of every table on SQLite, then the post_migrate signal,
which makes the content types, the permissions and the instructors' group again.
On PostgreSQL that cost a median 2.9 s per test on the 2-core test machine at load
~10 (what follows: 0.2 s), and the suite has ~360 transactional tests (live servers,
real Celery workers, threads that must see the test's rows).

Here, before a process's first transactional test, the database as the
migrations left it is remembered: its tables, and every row (content types,
permissions, the instructors' group, and the data migrations' rows such as the
four default personas). After each transactional test the tables that hold other
rows are emptied with DELETE in one transaction (Django's foreign keys are
deferred, so the order does not matter), and the remembered rows a test removed,
added to or changed are put back as they were. Every test therefore starts from
the migrated database, whatever ran before it in its process: with the suite
split over processes (pytest-xdist), transactional and ordinary tests
interleave, and a test that reads the default personas must not depend on
whether a flush ran before it. This is checked; whenever it cannot be done, the
full flush runs, and the remembered rows are put back on top of what it left:
- the tables are not the ones there were (a migration test left another schema:
  then what the flush left becomes the baseline);
- a table holds many rows (DELETE would cost more than TRUNCATE);
- the DELETE failed, or rows are left after it (a trigger wrote some);
- the test asked for Django's own handling (available_apps, serialized_rollback).
Content types and permissions keep their ids from test to test, where the full
flush made them anew.
"""

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

__all__ = ["fast_transactional_flush"]

# Above this many rows in one table, TRUNCATE beats DELETE: the full flush runs.
MANY_ROWS = 5_000


@dataclass(frozen=True)
class Baseline:
    """What a full flush left: the tables there were, and post_migrate's rows by table and key."""

    tables: frozenset[str]
    rows: dict[str, dict[object, tuple]]
    columns: dict[str, tuple[str, ...]]
    keys: dict[str, str]


# Per database alias: the database as the migrations left it, taken before this
# process's first transactional test (or, after a schema change, what a flush left).
_baselines: dict[str, Baseline] = {}


def _table_names(connection) -> frozenset[str]:
    return frozenset(connection.introspection.django_table_names(only_existing=True))


def _tables_with_rows(connection, tables: frozenset[str]) -> dict[str, int]:
    """Each of these tables that holds rows, with its row count (counted up to MANY_ROWS + 1)."""
    if not tables:
        return {}
    quote = connection.ops.quote_name
    sql = " UNION ALL ".join(
        f"SELECT '{table}', (SELECT COUNT(*) FROM (SELECT 1 FROM {quote(table)} "
        f"LIMIT {MANY_ROWS + 1}) AS head)"
        for table in sorted(tables)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return {table: count for table, count in cursor.fetchall() if count}


def _rows(connection, table: str, key: str) -> tuple[tuple[str, ...], dict[object, tuple]]:
    """A table's column names, and its rows by primary key."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
        columns = tuple(column[0] for column in cursor.description)
        at = columns.index(key)
        return columns, {row[at]: row for row in cursor.fetchall()}


def _snapshot(connection) -> Baseline:
    """Every table's rows: before the first transactional test, the migrations' rows."""
    tables = _table_names(connection)
    rows, columns, keys = {}, {}, {}
    with connection.cursor() as cursor:
        for table in _tables_with_rows(connection, tables):
            keys[table] = connection.introspection.get_primary_key_column(cursor, table)
    for table, key in keys.items():
        columns[table], rows[table] = _rows(connection, table, key)
    return Baseline(tables=tables, rows=rows, columns=columns, keys=keys)


def _restore(connection, baseline: Baseline, table: str) -> None:
    """Put post_migrate's rows of one table back as they were (a test added or changed some)."""
    quote = connection.ops.quote_name
    _, now = _rows(connection, table, baseline.keys[table])
    was = baseline.rows[table]
    stale = [key for key, row in now.items() if was.get(key) != row]
    missing = [row for key, row in was.items() if now.get(key) != row]
    with connection.cursor() as cursor:
        if stale:
            marks = ", ".join(["%s"] * len(stale))
            cursor.execute(
                f"DELETE FROM {quote(table)} WHERE {quote(baseline.keys[table])} IN ({marks})",
                stale,
            )
        if missing:
            names = ", ".join(quote(column) for column in baseline.columns[table])
            marks = ", ".join(["%s"] * len(baseline.columns[table]))
            cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", missing)


def _is_clean(connection, baseline: Baseline) -> bool:
    if set(_tables_with_rows(connection, baseline.tables)) - set(baseline.rows):
        return False
    return all(
        _rows(connection, table, baseline.keys[table])[1] == rows
        for table, rows in baseline.rows.items()
    )


def _delete_written_rows(alias: str) -> bool:
    """Empty the tables a test wrote to; False when the full flush is needed instead."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import DatabaseError, connections, transaction

    connection = connections[alias]
    baseline = _baselines.get(alias)
    if baseline is None or _table_names(connection) != baseline.tables:
        return False
    filled = _tables_with_rows(connection, baseline.tables)
    if any(count > MANY_ROWS for count in filled.values()):
        return False
    quote = connection.ops.quote_name
    try:
        with transaction.atomic(using=alias):
            with connection.cursor() as cursor:
                for table in filled:
                    if table not in baseline.rows:
                        cursor.execute(f"DELETE FROM {quote(table)}")
            for table in baseline.rows:
                _restore(connection, baseline, table)
    except DatabaseError:
        return False
    # As post_migrate does after the full flush: a test may have cached a type it changed.
    ContentType.objects.clear_cache()
    return _is_clean(connection, baseline)


@pytest.fixture(autouse=True, scope="session")
def fast_transactional_flush() -> Iterator[None]:
    from django.db import connections
    from django.test import TransactionTestCase

    full_setup = TransactionTestCase.__dict__["_fixture_setup"]  # a classmethod
    full_flush = TransactionTestCase._fixture_teardown

    @classmethod
    def _fixture_setup(cls) -> None:
        # Before the first transactional test of this process, the database is as the
        # migrations left it (other tests roll back): that is what every later test
        # gets back, the data migrations' rows included.
        for alias in cls._databases_names(include_mirrors=False):
            if alias not in _baselines:
                _baselines[alias] = _snapshot(connections[alias])
        full_setup.__func__(cls)

    def _fixture_teardown(self) -> None:
        aliases = self._databases_names(include_mirrors=False)
        own_handling = self.available_apps is not None or self.serialized_rollback
        if not own_handling and all([_delete_written_rows(alias) for alias in aliases]):
            return
        full_flush(self)
        for alias in aliases:
            # The flush left post_migrate's rows (content types anew); put the
            # migrated database back on top of it. Where it cannot be (a migration
            # test left another schema), what the flush left becomes the baseline.
            if not _delete_written_rows(alias):
                _baselines[alias] = _snapshot(connections[alias])

    TransactionTestCase._fixture_setup = _fixture_setup
    TransactionTestCase._fixture_teardown = _fixture_teardown
    try:
        yield
    finally:
        TransactionTestCase._fixture_setup = full_setup
        TransactionTestCase._fixture_teardown = full_flush
