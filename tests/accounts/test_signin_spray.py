"""A password spray from one address is throttled, whatever X-Forwarded-For says."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-pass"


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def forty_students():
    users = get_user_model().objects
    return [users.create_user(f"student{n}", password=f"own-password-{n}") for n in range(40)]


def _spray(forty_students, *, rotate: bool) -> list[int]:
    """One guessed password tried on each of 40 usernames; the status of each attempt."""
    client = Client()
    statuses = []
    for n, student in enumerate(forty_students):
        # A server that trusts X-Forwarded-For from loopback (uvicorn's default) puts the
        # header's address in REMOTE_ADDR: rotating it rotates the address Django sees.
        spoofed = f"203.0.113.{n + 1}"
        extra = (
            {"REMOTE_ADDR": spoofed, "HTTP_X_FORWARDED_FOR": spoofed}
            if rotate
            else {"REMOTE_ADDR": "198.51.100.9"}
        )
        response = client.post(
            reverse("login"), {"username": student.username, "password": "Summer2026!"}, **extra
        )
        statuses.append(response.status_code)
    return statuses


@pytest.mark.parametrize("rotate", [False, True], ids=["one address", "rotating X-Forwarded-For"])
def test_it_throttles_a_password_spray_from_one_address(forty_students, settings, rotate) -> None:
    statuses = _spray(forty_students, rotate=rotate)
    checked = statuses.count(200)  # the form again: the password was checked and was wrong
    print(f"spray ({'rotating' if rotate else 'one address'}): {checked} of 40 checked")
    assert checked == settings.LOGIN_ADDRESS_FAILURE_LIMIT
    assert statuses[checked:] == [429] * (40 - checked)


def _sign_in(client: Client, username: str, password: str, address: str = "198.51.100.9", **extra):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address, **extra
    )


def test_it_refuses_even_the_right_password_while_the_address_waits(settings) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 3
    get_user_model().objects.create_user("cleo", password=PASSWORD)
    client = Client()
    for name in ("ana", "ben", "cid"):
        assert _sign_in(client, name, "guess").status_code == 200
    refused = _sign_in(client, "cleo", PASSWORD)
    assert refused.status_code == 429
    body = refused.content.decode()
    assert "Sign-in paused" in body and "many wrong passwords from your network" in body
    assert "You can try again in " in body and int(refused["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session
    # Another address is not held back.
    assert _sign_in(Client(), "cleo", PASSWORD, address="198.51.100.10").status_code == 302


def test_it_counts_failures_on_the_admin_sign_in_too(settings) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    client = Client()
    for name in ("ana", "ben"):
        response = client.post(
            reverse("admin:login"), {"username": name, "password": "x"}, REMOTE_ADDR="198.51.100.9"
        )
        assert response.status_code == 200
    assert _sign_in(client, "cid", "guess").status_code == 429
    refused = client.post(
        reverse("admin:login"), {"username": "dan", "password": "x"}, REMOTE_ADDR="198.51.100.9"
    )
    assert refused.status_code == 429


def test_it_lets_a_class_behind_one_address_sign_in(forty_students, settings) -> None:
    # Successes do not count: forty students behind the school's one address, a few typos.
    for n, student in enumerate(forty_students):
        if n % 10 == 0:
            assert _sign_in(Client(), student.username, "typo").status_code == 200
        assert _sign_in(Client(), student.username, f"own-password-{n}").status_code == 302


def test_it_lets_the_address_in_again_once_the_oldest_failure_leaves_the_window(
    settings, monkeypatch
) -> None:
    from limits import rates

    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    settings.LOGIN_ADDRESS_WINDOW_MINUTES = 15
    get_user_model().objects.create_user("cleo", password=PASSWORD)
    now = [1_000_000.0]
    monkeypatch.setattr(rates, "clock", lambda: now[0])
    client = Client()
    _sign_in(client, "ana", "guess")
    now[0] += 600
    _sign_in(client, "ben", "guess")
    assert _sign_in(client, "cleo", PASSWORD).status_code == 429
    now[0] += 301  # the first failure is now 15 min 1 s old; the second still counts
    assert _sign_in(client, "cleo", PASSWORD).status_code == 302


def test_it_reads_the_address_the_trusted_proxy_saw(settings) -> None:
    # One proxy in front: REMOTE_ADDR is the proxy, the last X-Forwarded-For entry the client.
    settings.TRUSTED_PROXIES = 1
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 2
    proxy = {"address": "10.0.0.2"}
    for spoof in ("1.1.1.1", "2.2.2.2"):  # what a client writes itself is further left
        header = {"HTTP_X_FORWARDED_FOR": f"{spoof}, 203.0.113.5"}
        assert _sign_in(Client(), "ana", "guess", **proxy, **header).status_code == 200
    header = {"HTTP_X_FORWARDED_FOR": "9.9.9.9, 203.0.113.5"}
    assert _sign_in(Client(), "ana", "guess", **proxy, **header).status_code == 429
    # Another client behind the same proxy is another address.
    other = {"HTTP_X_FORWARDED_FOR": "203.0.113.6"}
    assert _sign_in(Client(), "ana", "guess", **proxy, **other).status_code == 200


def test_it_says_so_in_spanish(settings) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 1
    client = Client(headers={"accept-language": "es"})
    _sign_in(client, "ana", "guess")
    body = _sign_in(client, "ana", "guess").content.decode()
    assert "muchas contraseñas incorrectas desde tu red" in body
    assert "Inicio de sesión en pausa" in body and "Puedes volver a intentarlo en " in body


@pytest.mark.slow
def test_it_throttles_a_rotating_x_forwarded_for_through_the_real_server(
    live_asgi, settings
) -> None:
    # As the tester did it: uvicorn with its defaults (it trusts X-Forwarded-For from
    # loopback and puts the header's address in REMOTE_ADDR), one new address a try.
    import re

    import requests

    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 5
    for n in range(8):
        get_user_model().objects.create_user(f"student{n}", password=f"own-password-{n}")
    session = requests.Session()
    url = f"{live_asgi.url}/accounts/login/"
    statuses = []
    for n in range(8):
        page = session.get(url, timeout=10)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        answer = session.post(
            url,
            data={
                "username": f"student{n}",
                "password": "Summer2026!",
                "csrfmiddlewaretoken": token,
            },
            headers={"X-Forwarded-For": f"203.0.113.{n + 1}", "Referer": url},
            timeout=10,
        )
        statuses.append(answer.status_code)
    assert statuses == [200] * 5 + [429] * 3
