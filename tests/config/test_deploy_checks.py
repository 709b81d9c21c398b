"""`manage.py check --deploy` on the production defaults, in a real process."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

# Each test starts Django in a fresh process, as a deployment would.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CLEARED = (
    "DEBUG",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_COOKIES",
    "SECURE_PROXY_SSL_HEADER",
)


def _run(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    # A key as production would have one: long, random, not the development key.
    clean.update(
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="argue.example",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _security_warnings(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if "(security." in line]


def test_it_passes_the_deploy_checks_with_debug_off() -> None:
    result = _run("check", "--deploy")
    assert _security_warnings(result) == []
    assert result.returncode == 0, result.stderr


def test_it_warns_when_the_https_redirect_is_turned_off() -> None:
    # The check is live: switching a default off brings its warning back.
    result = _run("check", "--deploy", SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0")
    warnings = " ".join(_security_warnings(result))
    assert "security.W008" in warnings and "security.W004" in warnings


def test_it_sends_hsts_and_the_content_security_policy() -> None:
    probe = (
        "import django; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz', secure=True, HTTP_HOST='argue.example');"
        "print(r.status_code);"
        "print(r.headers.get('Strict-Transport-Security'));"
        "print(r.headers.get('Content-Security-Policy'));"
        "r = Client().get('/', HTTP_HOST='argue.example');"
        "print(r.status_code, r.headers.get('Location'))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="argue.example",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    status, hsts, csp, redirect = result.stdout.splitlines()
    assert status == "200"
    assert hsts == "max-age=31536000; includeSubDomains; preload"
    assert "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert redirect == "301 https://argue.example/"


def test_it_trusts_the_proxy_header_only_when_told() -> None:
    probe = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(getattr(s, 'SECURE_PROXY_SSL_HEADER', None))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED}
    clean.update(SECRET_KEY="k", DJANGO_SETTINGS_MODULE="config.settings")

    def value(**env: str) -> str:
        return subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            env={**clean, **env},
            capture_output=True,
            text=True,
        ).stdout.strip()

    assert value() == "None"
    assert value(SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https") == (
        "('HTTP_X_FORWARDED_PROTO', 'https')"
    )


def test_it_only_reports_csp_violations_in_debug() -> None:
    # Django's debug pages carry inline styles and scripts; production blocks them.
    probe = (
        "import django; django.setup();"
        "from django.test import Client;"
        "r = Client().get('/healthz');"
        "print(bool(r.headers.get('Content-Security-Policy')),"
        " bool(r.headers.get('Content-Security-Policy-Report-Only')))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in CLEARED + ("CSP_REPORT_ONLY",)}
    clean.update(DEBUG="1", DJANGO_SETTINGS_MODULE="config.settings")
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True
    )
    assert result.stdout.split() == ["False", "True"], result.stderr


def _site_warnings(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if "(argue." in line]


# The check reads the settings only: no PostgreSQL needs to answer at this address.
POSTGRES = "postgres://argue@127.0.0.1:9/argue"


def test_it_warns_of_postgresql_without_a_connection_pool() -> None:
    result = _run("check", "--deploy", DATABASE_URL=POSTGRES, DATABASE_POOL_SIZE="0")
    assert [w.split(")")[0].split("(")[1] for w in _site_warnings(result)] == ["argue.W001"]
    assert "DATABASE_POOL_SIZE" in result.stdout + result.stderr
    assert result.returncode == 0, result.stderr  # a warning, not an error


def test_it_says_nothing_of_the_pool_with_one_or_on_sqlite() -> None:
    pooled = _run("check", "--deploy", DATABASE_URL=POSTGRES, DATABASE_POOL_SIZE="40")
    assert _site_warnings(pooled) == []
    sqlite = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env={**sqlite, "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "argue.example"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert _site_warnings(result) == []
