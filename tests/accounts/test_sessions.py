"""Sessions and users the stock way: Django's database sessions and its ModelBackend, and
the sessions an earlier deployment stored naming the site's old backend kept signed in."""

from __future__ import annotations

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

pytestmark = pytest.mark.django_db

DJANGOS_BACKEND = "django.contrib.auth.backends.ModelBackend"
OLD_BACKEND = "accounts.backends.ModelBackend"
renaming = importlib.import_module("accounts.migrations.0001_sessions_name_djangos_backend")


def _stored(data: dict) -> str:
    store = db.SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def _signed_in_as(user, backend: str) -> str:
    return _stored(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )


def _rename_stored_sessions() -> None:
    # What the migration's RunPython is handed: the app registry and the schema editor,
    # of which it reads only the connection (SQLite's refuses to open in a test's transaction).
    renaming.rename_backend(apps, SimpleNamespace(connection=connection))


def _user_seen(client, key: str):
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client.get("/").wsgi_request.user


def test_it_signs_in_with_djangos_backend(client, django_user_model) -> None:
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    django_user_model.objects.create_user("dan", password="pw-long-enough-1")
    response = client.post("/accounts/login/", {"username": "dan", "password": "pw-long-enough-1"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == DJANGOS_BACKEND


def test_it_keeps_a_signed_in_student_signed_in(client, django_user_model) -> None:
    user = django_user_model.objects.create_user("ana", password="pw-long-enough-1")
    client.force_login(user)
    assert client.get("/").wsgi_request.user == user
    client.cookies[settings.SESSION_COOKIE_NAME] = "y" * 32
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_it_signs_out_a_session_whose_user_changed_password_or_left(
    client, django_user_model
) -> None:
    user = django_user_model.objects.create_user("dee", password="pw-long-enough-1")
    key = _signed_in_as(user, DJANGOS_BACKEND)
    assert _user_seen(client, key) == user
    django_user_model.objects.filter(pk=user.pk).update(is_active=False)
    assert not _user_seen(client, key).is_authenticated
    django_user_model.objects.filter(pk=user.pk).update(is_active=True)
    assert _user_seen(client, key) == user
    user.set_password("a-new-password-2")
    user.save()
    assert not _user_seen(client, key).is_authenticated


def test_it_keeps_signed_in_whoever_signed_in_through_the_old_backend(
    client, django_user_model
) -> None:
    user = django_user_model.objects.create_user("cleo", password="pw-long-enough-1")
    key = _signed_in_as(user, OLD_BACKEND)
    _rename_stored_sessions()
    loaded = db.SessionStore(session_key=key).load()
    assert loaded[BACKEND_SESSION_KEY] == DJANGOS_BACKEND
    assert loaded[SESSION_KEY] == str(user.pk)
    assert loaded[HASH_SESSION_KEY] == user.get_session_auth_hash()
    assert _user_seen(client, key) == user


def test_it_renames_only_the_old_backend_and_keeps_the_rest_of_each_session(
    django_user_model,
) -> None:
    user = django_user_model.objects.create_user("eli", password="pw-long-enough-1")
    old = _stored({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: OLD_BACKEND, "step": "claim"})
    other = _stored({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "axes.backends.X"})
    signed_out = _stored({"django_language": "es"})
    Session.objects.create(
        session_key="z" * 32,
        session_data="not signed",
        expire_date=(timezone.now() + timedelta(days=1)),
    )
    before = dict(Session.objects.values_list("session_key", "session_data"))
    _rename_stored_sessions()
    after = dict(Session.objects.values_list("session_key", "session_data"))
    assert db.SessionStore(session_key=old).load() == {
        SESSION_KEY: str(user.pk),
        BACKEND_SESSION_KEY: DJANGOS_BACKEND,
        "step": "claim",
    }
    for untouched in (other, signed_out, "z" * 32):
        assert after[untouched] == before[untouched]


def test_it_renames_sessions_past_one_page_of_them(django_user_model, monkeypatch) -> None:
    monkeypatch.setattr(renaming, "PAGE", 2)
    user = django_user_model.objects.create_user("fay", password="pw-long-enough-1")
    keys = [_signed_in_as(user, OLD_BACKEND) for _ in range(5)]
    _rename_stored_sessions()
    for key in keys:
        assert db.SessionStore(session_key=key).load()[BACKEND_SESSION_KEY] == DJANGOS_BACKEND
