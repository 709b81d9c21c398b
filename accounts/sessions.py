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

A signed-in request then reads its user (``accounts.backends``): a second
round trip to the database, every request. So the process remembers which
user each session was last seen signed in as, and from the second request of
a session on reads the session row and that user's row in one statement (a
LEFT JOIN on the remembered id). The remembered id is only a hint, never an
identity: who is signed in is still what the session's signed data says, the
user row is read in the same statement as the session, and the backend takes
it only when its id is the one the session names (otherwise it reads the user
as before). A wrong or stale hint costs a row read for nothing, never a wrong
user.

Source: ``django.contrib.sessions.backends.db.SessionStore._get_session_from_db``,
Django 5.2.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache
from types import SimpleNamespace
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import Model
from django.utils import timezone

from config.sql_rows import columns, from_row, quote_for

__all__ = ["SessionStore", "take_prefetched_user"]

# Session key -> the user id its data named when this process last read it (a hint:
# the module docstring). Bounded: past this many it starts afresh.
_USER_HINTS: dict[str, str] = {}
_HINTS_KEPT = 20_000
# The user row read with the session in this request's context: (its pk, the user).
_PREFETCHED: ContextVar[tuple[Any, Model] | None] = ContextVar("prefetched_user", default=None)


def take_prefetched_user(pk: Any) -> Model | None:
    """The user read with this request's session, if it is user `pk` (once: it is cleared)."""
    found = _PREFETCHED.get()
    if found is None or found[0] != pk:
        return None
    _PREFETCHED.set(None)
    return found[1]


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


@cache
def _select_with_user_sql(alias: str, vendor: str) -> str:
    quote = quote_for(alias)
    meta, user_meta = Session._meta, get_user_model()._meta
    return (
        f"SELECT {quote('s')}.{quote(meta.get_field('session_data').column)}, "
        f"{columns(get_user_model(), alias, 'u')} "
        f"FROM {quote(meta.db_table)} {quote('s')} "
        f"LEFT JOIN {quote(user_meta.db_table)} {quote('u')} "
        f"ON {quote('u')}.{quote(user_meta.pk.column)} = %s "
        f"WHERE {quote('s')}.{quote(meta.pk.column)} = %s "
        f"AND {quote('s')}.{quote(meta.get_field('expire_date').column)} > %s"
    )


def _hinted_pk(session_key: str | None) -> Any:
    hint = _USER_HINTS.get(session_key) if session_key else None
    if hint is None:
        return None
    try:
        return get_user_model()._meta.pk.to_python(hint)
    except ValidationError:
        return None


class SessionStore(db.SessionStore):
    def load(self) -> dict:
        data = super().load()
        key, user_id = self.session_key, data.get(SESSION_KEY)
        if key and isinstance(user_id, str):
            if len(_USER_HINTS) >= _HINTS_KEPT:
                _USER_HINTS.clear()
            _USER_HINTS[key] = user_id
        elif key:
            _USER_HINTS.pop(key, None)
        return data

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
        # One statement only where both tables live in the same database.
        same_database = router.db_for_read(get_user_model()) == alias
        user_pk = _hinted_pk(self.session_key) if same_database else None
        _PREFETCHED.set(None)
        with connection.cursor() as cursor:
            if user_pk is None:
                cursor.execute(_select_sql(alias, connection.vendor), [self.session_key, now])
            else:
                sql = _select_with_user_sql(alias, connection.vendor)
                cursor.execute(sql, [user_pk, self.session_key, now])
            row = cursor.fetchone()
        if row is not None and user_pk is not None:
            user_model = get_user_model()
            user_row = row[1:]
            if user_row[user_model._meta.concrete_fields.index(user_model._meta.pk)] is not None:
                _PREFETCHED.set((user_pk, from_row(user_model, alias, user_row)))
        if row is None:
            self._session_key = None
            return None
        # `load` reads only this attribute of what Django's engine returns (a Session).
        return SimpleNamespace(session_data=row[0])
