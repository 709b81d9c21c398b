"""Password-reset requests are rate-limited per address and per email address asked for."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _ask(email: str, address: str):
    return Client().post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_it_limits_password_reset_requests_from_one_address(settings, mailoutbox) -> None:
    get_user_model().objects.create_user("cleo", email="cleo@school.example", password="pw-x-1234")
    statuses = [_ask(f"someone{n}@school.example", "198.51.100.9").status_code for n in range(30)]
    accepted = statuses.count(302)
    print(f"password reset: {accepted} of 30 accepted")
    assert accepted == settings.PASSWORD_RESET_PER_HOUR
    assert statuses[accepted:] == [429] * (30 - accepted)
    refused = _ask("cleo@school.example", "198.51.100.9")
    assert "Too many password-reset requests" in refused.content.decode()
    assert mailoutbox == []  # the refused request sent nothing


def test_it_limits_requests_for_one_email_from_many_addresses(settings, mailoutbox) -> None:
    get_user_model().objects.create_user("cleo", email="cleo@school.example", password="pw-x-1234")
    statuses = [_ask("Cleo@School.example ", f"203.0.113.{n}").status_code for n in range(1, 7)]
    assert statuses == [302] * settings.PASSWORD_RESET_PER_EMAIL_PER_HOUR + [429] * (
        6 - settings.PASSWORD_RESET_PER_EMAIL_PER_HOUR
    )
    assert len(mailoutbox) == settings.PASSWORD_RESET_PER_EMAIL_PER_HOUR
