"""Stored sessions that name the site's old sign-in backend name Django's instead.

The site once signed users in through a backend of its own,
``accounts.backends.ModelBackend`` (Django's, its user read written by hand),
and its sessions stored that path. The backend is gone; Django signs out a
session whose backend is not in ``AUTHENTICATION_BACKENDS``
(``django.contrib.auth.get_user``), so each such session that has not expired
is rewritten to name ``django.contrib.auth.backends.ModelBackend``, which reads
the same users. Sessions are decoded and encoded as Django's database engine
does (same signing salt, same serializer); one that does not decode is left as
it is (Django treats it as empty). Nothing to undo: the old code read Django's
path as its own.
"""

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import migrations
from django.utils import timezone

OLD_BACKEND = "accounts.backends.ModelBackend"
NEW_BACKEND = "django.contrib.auth.backends.ModelBackend"
PAGE = 1000


def rename_backend(apps, schema_editor) -> None:
    session_model = apps.get_model("sessions", "Session")
    alias = schema_editor.connection.alias
    live = session_model.objects.using(alias).filter(expire_date__gt=timezone.now())
    coder = SessionStore()  # Django's db engine: its salt and serializer
    last_key = ""
    while True:
        page = list(
            live.filter(session_key__gt=last_key)
            .order_by("session_key")
            .values_list("session_key", "session_data")[:PAGE]
        )
        if not page:
            return
        last_key = page[-1][0]
        renamed = []
        for key, stored in page:
            data = coder.decode(stored)
            if data.get(BACKEND_SESSION_KEY) == OLD_BACKEND:
                data[BACKEND_SESSION_KEY] = NEW_BACKEND
                renamed.append(session_model(session_key=key, session_data=coder.encode(data)))
        session_model.objects.using(alias).bulk_update(renamed, ["session_data"])


class Migration(migrations.Migration):
    dependencies = [("sessions", "0001_initial")]

    operations = [
        migrations.RunPython(rename_backend, migrations.RunPython.noop, elidable=True),
    ]
