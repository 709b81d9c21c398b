"""The language cookie is Secure whenever the session cookie is (settings, in a real process)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PRINT = (
    "from django.conf import settings; from django.test import Client; "
    "r = Client().post('/i18n/setlang/', {'language': 'es'}, secure=True); "
    "print(settings.SESSION_COOKIE_SECURE, bool(r.cookies[settings.LANGUAGE_COOKIE_NAME]['secure']))"
)


def _flags(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECURE_COOKIES")}
    clean.update(
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="testserver",
        DJANGO_SETTINGS_MODULE="config.settings",
        **env,
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PRINT],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("env", "flags"),
    [({}, "True True"), ({"SECURE_COOKIES": "0"}, "False False"), ({"DEBUG": "1"}, "False False")],
    ids=["production", "SECURE_COOKIES=0", "debug"],
)
def test_it_sends_the_language_cookie_secure_whenever_the_session_cookie_is(env, flags) -> None:
    assert _flags(**env) == flags
