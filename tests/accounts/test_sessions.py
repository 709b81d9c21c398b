"""The site's session engine reads what Django's database engine stores, in one statement,
with the signed-in user once it knows whom to expect."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import sessions
from accounts.backends import PATH
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


def _signed_in_key(user) -> str:
    return _stored(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: PATH,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )


def _user_for(key: str):
    request = HttpRequest()
    request.session = SessionStore(session_key=key)
    return get_user(request)


def test_it_reads_a_known_session_and_its_user_in_one_statement(django_user_model) -> None:
    user = django_user_model.objects.create_user("cai", password="pw-long-enough-1")
    key = _signed_in_key(user)
    with CaptureQueriesContext(connection) as first:
        assert _user_for(key) == user
    with CaptureQueriesContext(connection) as later:
        again = _user_for(key)
    assert len(first) == 2, "the first time: the session, then its user"
    assert len(later) == 1, [q["sql"] for q in later]
    assert again == user and again.get_session_auth_hash() == user.get_session_auth_hash()


def test_it_reads_the_user_fresh_with_the_session(django_user_model) -> None:
    user = django_user_model.objects.create_user("dee", password="pw-long-enough-1")
    key = _signed_in_key(user)
    _user_for(key)
    django_user_model.objects.filter(pk=user.pk).update(first_name="Dee")
    assert _user_for(key).first_name == "Dee"
    django_user_model.objects.filter(pk=user.pk).update(is_active=False)
    assert not _user_for(key).is_authenticated
    django_user_model.objects.filter(pk=user.pk).update(is_active=True)
    user.set_password("a-new-password-2")
    user.save()
    assert not _user_for(key).is_authenticated, "a password change still signs the session out"


def test_it_never_takes_a_wrong_hint_for_the_sessions_user(django_user_model) -> None:
    ana = django_user_model.objects.create_user("ana2", password="pw-long-enough-1")
    ben = django_user_model.objects.create_user("ben2", password="pw-long-enough-1")
    key = _signed_in_key(ana)
    sessions._USER_HINTS[key] = str(ben.pk)  # a stale or poisoned hint
    assert _user_for(key) == ana
    sessions._USER_HINTS[key] = "not-a-number"
    assert _user_for(key) == ana
    assert sessions._USER_HINTS[key] == str(ana.pk), "the hint follows what the session says"


def test_it_forgets_the_hint_of_a_session_signed_out(client, django_user_model) -> None:
    user = django_user_model.objects.create_user("eve", password="pw-long-enough-1")
    client.force_login(user)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    client.get("/")
    assert sessions._USER_HINTS.get(key) == str(user.pk)
    store = SessionStore(session_key=key)
    store.pop(SESSION_KEY)
    store.save()
    assert not client.get("/").wsgi_request.user.is_authenticated
    assert key not in sessions._USER_HINTS
