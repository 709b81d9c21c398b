"""The site's sign-in backend reads the user Django's would, in one statement written once."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.sessions.backends import db
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.backends import PATH, ModelBackend

pytestmark = pytest.mark.django_db


def _fields(user) -> dict:
    return {f.attname: getattr(user, f.attname) for f in user._meta.concrete_fields}


def test_it_is_the_sites_backend_for_users() -> None:
    assert PATH in settings.AUTHENTICATION_BACKENDS
    assert "django.contrib.auth.backends.ModelBackend" not in settings.AUTHENTICATION_BACKENDS


def test_it_reads_the_user_djangos_backend_reads_in_one_statement(django_user_model) -> None:
    user = django_user_model.objects.create_user(
        "ana", password="pw-long-enough-1", email="ana@example.org", first_name="Ana"
    )
    django_user_model.objects.filter(pk=user.pk).update(last_login=timezone.now(), is_staff=True)
    with CaptureQueriesContext(connection) as queries:
        ours = ModelBackend().get_user(user.pk)
    theirs = DjangoModelBackend().get_user(user.pk)
    assert len(queries) == 1
    assert _fields(ours) == _fields(theirs)
    assert ours.is_staff is True and ours.last_login.tzinfo is not None
    assert ours._state.adding is False
    assert ours.get_session_auth_hash() == theirs.get_session_auth_hash()


def test_it_returns_no_user_for_an_inactive_missing_or_malformed_id(django_user_model) -> None:
    user = django_user_model.objects.create_user("ben", password="pw-long-enough-1")
    django_user_model.objects.filter(pk=user.pk).update(is_active=False)
    assert ModelBackend().get_user(user.pk) is None
    assert ModelBackend().get_user(user.pk + 1000) is None
    assert ModelBackend().get_user("not-a-number") is None


def test_it_keeps_signed_in_whoever_signed_in_with_djangos_backend(client, django_user_model):
    user = django_user_model.objects.create_user("cleo", password="pw-long-enough-1")
    # A session an earlier deployment stored: it names Django's class.
    old = db.SessionStore()
    old[SESSION_KEY] = str(user.pk)
    old[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    old[HASH_SESSION_KEY] = user.get_session_auth_hash()
    old.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = old.session_key
    assert client.get("/").wsgi_request.user == user


def test_it_is_what_the_sign_in_form_stores(client, django_user_model) -> None:
    django_user_model.objects.create_user("dan", password="pw-long-enough-1")
    response = client.post("/accounts/login/", {"username": "dan", "password": "pw-long-enough-1"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == PATH


def test_it_reads_an_old_session_as_naming_it_on_the_async_path_too(django_user_model) -> None:
    from asgiref.sync import async_to_sync

    from accounts.sessions import SessionStore

    old = db.SessionStore()
    old[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    old.save()
    assert SessionStore(session_key=old.session_key).load()[BACKEND_SESSION_KEY] == PATH
    # async_to_sync runs the ORM's thread-sensitive read back in this thread, in the test's
    # transaction, as the live pages' request.auser() reads in the request's.
    loaded = async_to_sync(SessionStore(session_key=old.session_key).aload)()
    assert loaded[BACKEND_SESSION_KEY] == PATH
