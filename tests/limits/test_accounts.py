"""Sign-in throttling (django-axes) and closing self-signup."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-pass"


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    # The real hasher costs a second per password; these tests check throttling.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def cleo():
    return get_user_model().objects.create_user("cleo", password=PASSWORD)


def _sign_in(client: Client, username: str, password: str, **extra):
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR="10.0.0.7",
        **extra,
    )


def test_it_locks_a_username_after_repeated_wrong_passwords(cleo, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    for _ in range(2):
        answer = _sign_in(client, "cleo", "wrong-guess")
        assert answer.status_code == 200  # the sign-in form again, with its error

    locked = _sign_in(client, "cleo", "wrong-guess")

    assert locked.status_code == 429
    body = locked.content.decode()
    assert "Sign-in paused" in body
    assert "wrong password 3 times in a row" in body
    assert "You can try again in " in body
    # Even the right password is refused while the pause lasts.
    again = _sign_in(client, "cleo", PASSWORD)
    assert again.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_locks_only_that_username_from_that_address(cleo, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    get_user_model().objects.create_user("dora", password=PASSWORD)
    for _ in range(2):
        _sign_in(Client(), "cleo", "wrong-guess")

    classmate = Client()
    assert _sign_in(classmate, "dora", PASSWORD).status_code == 302  # same address, other user
    elsewhere = Client()
    answer = elsewhere.post(
        reverse("login"), {"username": "cleo", "password": PASSWORD}, REMOTE_ADDR="10.0.0.8"
    )
    assert answer.status_code == 302  # same user, another address


def test_it_forgets_failures_after_a_successful_sign_in(cleo, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    _sign_in(client, "cleo", "wrong-guess")
    _sign_in(client, "cleo", "wrong-guess")
    assert _sign_in(client, "cleo", PASSWORD).status_code == 302
    client.logout()

    _sign_in(client, "cleo", "wrong-guess")
    assert _sign_in(client, "cleo", "wrong-guess").status_code == 200  # 2 of 3 again, not locked


def test_it_shows_the_lockout_page_in_the_visitors_language(cleo, settings) -> None:
    settings.AXES_FAILURE_LIMIT = 1

    locked = _sign_in(Client(), "cleo", "wrong-guess", HTTP_ACCEPT_LANGUAGE="es")

    assert locked.status_code == 429
    assert '<html lang="es"' in locked.content.decode()


def test_it_closes_signup_when_the_setting_says_so(client: Client, settings) -> None:
    settings.SIGNUP_OPEN = False

    page = client.get(reverse("coach:signup"))
    posted = client.post(
        reverse("coach:signup"),
        {"username": "eve", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert page.status_code == 403
    assert "Sign-up is closed" in page.content.decode()
    assert posted.status_code == 403
    assert not get_user_model().objects.filter(username="eve").exists()
    sign_in_page = client.get(reverse("login")).content.decode()
    assert reverse("coach:signup") not in sign_in_page


def test_it_opens_signup_when_the_setting_says_so(client: Client, settings) -> None:
    settings.SIGNUP_OPEN = True

    assert client.get(reverse("coach:signup")).status_code == 200
    assert reverse("coach:signup") in client.get(reverse("login")).content.decode()
