"""The site's session engine reads what Django's database engine stores, in one statement."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def _stored(data: dict) -> str:
    # Saved by Django's own engine: the rows an earlier deployment left behind.
    store = db.SessionStore()
    store.update(data)
    store.save()
    return store.session_key


def test_it_is_the_sites_engine() -> None:
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_it_loads_what_djangos_engine_stored_in_one_statement() -> None:
    key = _stored({"_auth_user_id": "7", "step": "claim", "n": [1, 2]})
    store = SessionStore(session_key=key)
    with CaptureQueriesContext(connection) as queries:
        loaded = store.load()
    assert loaded == db.SessionStore(session_key=key).load()
    assert loaded == {"_auth_user_id": "7", "step": "claim", "n": [1, 2]}
    assert len(queries) == 1
    assert store.session_key == key


def test_it_treats_an_expired_session_as_none_and_forgets_its_key() -> None:
    key = _stored({"_auth_user_id": "7"})
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    store = SessionStore(session_key=key)
    assert store.load() == {}
    assert store.session_key is None


def test_it_treats_an_unknown_key_as_none() -> None:
    store = SessionStore(session_key="x" * 32)
    assert store.load() == {}
    assert store.session_key is None


def test_it_still_saves_and_deletes_as_djangos_engine() -> None:
    store = SessionStore()
    store["step"] = "grounds"
    store.save()
    assert SessionStore(session_key=store.session_key).load() == {"step": "grounds"}
    store.delete()
    assert not Session.objects.filter(pk=store.session_key).exists()


def test_it_keeps_a_signed_in_student_signed_in(client, django_user_model) -> None:
    user = django_user_model.objects.create_user("ana", password="pw-long-enough-1")
    client.force_login(user)
    assert client.get("/").wsgi_request.user == user
    client.cookies[settings.SESSION_COOKIE_NAME] = "y" * 32
    assert not client.get("/").wsgi_request.user.is_authenticated
