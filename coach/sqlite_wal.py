"""Keep SQLite's write-ahead log in place between requests: one idle connection per file.

Under ASGI each request runs its database work in a thread of its own, and
Django closes that thread's connection when the request ends. When the last
connection to a WAL database closes, SQLite checkpoints the log into the
database file, syncs it and deletes the log; the next write creates the log
again and syncs its header. On a site that is not busy that is every
request. Measured on the development machine: the first write of a request
took about 7 ms and the close 12 ms that way, against 0.05 ms and 0.02 ms
while some other connection to the file was open.

So the first connection a process makes to a file-backed SQLite database
also opens an idle one that stays open for the life of the process. It
reads the schema once (which opens the log) and is never used again: it
holds no transaction and so no lock, and SQLite's automatic checkpoints
(every 1000 pages of log) go on as usual. PostgreSQL and in-memory SQLite
are left alone.

It is the whole site's setting rather than the coach's, but it lives here
because the project has no site-wide app to connect a signal from; the
coach's streaming turns are where the cost was measured (benchmarks/bench_coach.py).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from typing import Any

__all__ = ["keep_wal_open"]

# (process id, database path) -> the idle connection. Keyed by process as
# well: a forked worker must not use (or close) its parent's connection.
_keepers: dict[tuple[int, str], sqlite3.Connection] = {}
_lock = threading.Lock()


def _file_path(connection: Any) -> str | None:
    if connection.vendor != "sqlite":
        return None
    name = str(connection.settings_dict.get("NAME") or "")
    if not name or name == ":memory:" or "mode=memory" in name:
        return None
    return name


def keep_wal_open(*, connection: Any, **_: Any) -> None:
    """`connection_created` receiver: open the file's idle connection once per process."""
    path = _file_path(connection)
    if path is None:
        return
    key = (os.getpid(), path)
    if key in _keepers:
        return
    with _lock:
        if key in _keepers:
            return
        keeper = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        keeper.execute("SELECT count(*) FROM sqlite_master").fetchall()
        _keepers[key] = keeper
