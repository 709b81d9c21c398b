"""The site's sign-in backend: Django's ModelBackend, its per-request user read written once.

Every signed-in request loads its user by primary key (``AuthenticationMiddleware``
asks the session's backend). Django's ``ModelBackend.get_user`` builds and
compiles ``User.objects.get(pk=...)`` for it each time, which costs the server
more CPU than the database takes to answer; here the SELECT's text is made once
per database and the row read as the ORM would read it (``config.sql_rows``),
and most often not read at all: the session engine read it with the session
(``accounts.sessions`` says when and why that is safe).
Signing in, permissions and everything else are Django's, unchanged.

Sessions signed in before this backend existed name Django's class; the
session engine reads them as naming this one (``accounts.sessions``), so
nobody is signed out by the change.

Source: ``django.contrib.auth.backends.ModelBackend.get_user``, Django 5.2.
"""

from __future__ import annotations

from django.contrib.auth import backends, get_user_model
from django.core.exceptions import ValidationError

from accounts.sessions import take_prefetched_user
from config.sql_rows import row_by_pk

__all__ = ["ModelBackend", "PATH"]

PATH = "accounts.backends.ModelBackend"


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id):
        """The active user with this primary key, or None: Django's answer, one statement."""
        model = get_user_model()
        try:
            pk = model._meta.pk.to_python(user_id)
        except ValidationError:  # a session naming no valid key names no user
            return None
        # Read with the request's session when the session engine knew whom to expect.
        user = take_prefetched_user(pk) or row_by_pk(model, pk)
        return user if user is not None and self.user_can_authenticate(user) else None
