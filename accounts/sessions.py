"""The site's session engine: Django's database sessions, read with a statement written once.

Every signed-in request reads its session row first. Django's ``db`` engine
builds and compiles ``Session.objects.get(session_key=..., expire_date__gt=now)``
for it every time, and for a one-row read by primary key the compiling costs
the server more CPU than PostgreSQL takes to answer (about 0.3-0.4 ms a
request, measured on a coach turn: docs/coach.md, "Seventh round"). Here the
SELECT's text is made once per database from the model's own table and column
names, quoted by the backend, as ``coach/turn_sql.py`` does for the coach's
statements. Everything else (creating, saving, deleting, the async methods,
what ``decode`` accepts) is Django's ``db`` engine unchanged: the same table,
the same rows, so switching engines signs nobody out; a session that names
Django's ``ModelBackend`` is read as naming the site's (``accounts.backends``).

Source: ``django.contrib.sessions.backends.db.SessionStore._get_session_from_db``,
Django 5.2.
"""

from __future__ import annotations

from functools import cache
from types import SimpleNamespace

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connections, router
from django.utils import timezone

from config.sql_rows import quote_for

__all__ = ["SessionStore"]

# Sessions signed in before the site's backend (accounts/backends.py) name Django's
# class; they name the same accounts, read the same way.
_RENAMED_BACKENDS = {"django.contrib.auth.backends.ModelBackend": "accounts.backends.ModelBackend"}


@cache
def _select_sql(alias: str, vendor: str) -> str:
    quote = quote_for(alias)
    meta = Session._meta
    return (
        f"SELECT {quote(meta.get_field('session_data').column)} FROM {quote(meta.db_table)} "
        f"WHERE {quote(meta.pk.column)} = %s "
        f"AND {quote(meta.get_field('expire_date').column)} > %s"
    )


class SessionStore(db.SessionStore):
    def decode(self, session_data: str) -> dict:
        # Both load() and aload() (the live pages' request.auser()) read through here.
        data = super().decode(session_data)
        renamed = _RENAMED_BACKENDS.get(data.get(BACKEND_SESSION_KEY))
        if renamed is not None:
            data[BACKEND_SESSION_KEY] = renamed
        return data

    def _get_session_from_db(self) -> SimpleNamespace | None:
        """The unexpired row's data, or None (and no session key) as Django's engine does."""
        model = self.model
        alias = router.db_for_read(model)
        connection = connections[alias]
        now = model._meta.get_field("expire_date").get_db_prep_value(timezone.now(), connection)
        with connection.cursor() as cursor:
            cursor.execute(_select_sql(alias, connection.vendor), [self.session_key, now])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        # `load` reads only this attribute of what Django's engine returns (a Session).
        return SimpleNamespace(session_data=row[0])
