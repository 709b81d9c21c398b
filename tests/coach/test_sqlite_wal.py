"""One idle connection per SQLite file keeps the write-ahead log between requests."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from django.db.utils import ConnectionHandler


def django_connection(path: Path):
    """A real Django SQLite connection to `path`, in WAL mode like the site's."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": str(path),
                "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;"},
            }
        }
    )
    return handler["default"]


def write_and_close(connection) -> None:
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS t (x)")
        cursor.execute("INSERT INTO t VALUES (1)")
    connection.close()


def test_it_keeps_the_log_after_the_requests_connection_closes(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    path = tmp_path / "site.sqlite3"
    with django_db_blocker.unblock():  # a database of this test's own, not the test database
        write_and_close(django_connection(path))  # connection_created opens the idle one
        write_and_close(django_connection(path))
    assert Path(f"{path}-wal").exists()
    with sqlite3.connect(path) as reader:
        assert reader.execute("SELECT count(*) FROM t").fetchone() == (2,)


def test_it_needs_the_idle_connection_for_that(tmp_path: Path) -> None:
    # The same writes through plain sqlite3 (no Django, so no idle connection):
    # closing the last connection checkpoints and deletes the log.
    path = tmp_path / "plain.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    assert not Path(f"{path}-wal").exists()
