"""A stream that stays open gives its request's database connections back.

Django closes a request's connections when its response is closed
(``request_finished``). For a server-sent event stream that is when the reader
leaves, minutes or hours later, so every open live page held the database
connection it had used only to start: on PostgreSQL a class of a hundred open
pages took every connection the server allows (``max_connections``, 100 by
default) and the next request failed (``python -m benchmarks discussion_live``
on PostgreSQL saved no post). A stream awaits ``give_back_connections`` once its
first reads are done, and after any read it makes later; a later read opens a
connection again (from the pool, when there is one).

They are closed whatever ``CONN_MAX_AGE`` says: a connection kept for reuse is
no use to anyone while the stream's thread holds it. One inside a transaction
(a caller's, a test's) is left alone.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.db import connections

__all__ = ["give_back_connections"]


def _give_back() -> None:
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()


# In the request's own thread, where its connections live (thread-sensitive).
give_back_connections = sync_to_async(_give_back, thread_sensitive=True)
