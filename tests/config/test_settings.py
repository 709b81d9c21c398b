"""settings.py is driven by the environment; check it in fresh interpreters.

The probes read the settings module alone (``django.conf.settings``), without
``django.setup()``: importing every app would cost each fresh interpreter
seconds and say nothing more about the settings.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps({'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], "
    "'hosts': s.ALLOWED_HOSTS, 'broker': s.CELERY_BROKER_URL, 'eager': s.CELERY_TASK_ALWAYS_EAGER, "
    "'key': s.SECRET_KEY}))"
)
VARIABLES = (
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "DATABASE_POOL_SIZE",
    "REDIS_URL",
    "ALLOWED_HOSTS",
)


def _settings_with(*, probe: str = PROBE, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    result = _settings_with()
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_uses_a_development_key_only_in_debug() -> None:
    result = _settings_with(DEBUG="1")
    values = json.loads(result.stdout)
    assert values["debug"] is True
    assert values["key"].startswith("django-insecure")


def test_it_defaults_to_sqlite_and_no_broker() -> None:
    values = json.loads(_settings_with(SECRET_KEY="k").stdout)
    assert values["debug"] is False
    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["broker"] == "memory://"
    assert values["eager"] is True
    assert values["hosts"] == []


def test_it_reads_postgres_redis_and_hosts_from_the_environment() -> None:
    values = json.loads(
        _settings_with(
            SECRET_KEY="k",
            DATABASE_URL="postgres://u:p@db.example:5432/argue",
            REDIS_URL="redis://cache.example:6379/1",
            ALLOWED_HOSTS="argue.example, www.argue.example",
        ).stdout
    )
    assert values["engine"] == "django.db.backends.postgresql"
    assert values["broker"] == "redis://cache.example:6379/1"
    assert values["eager"] is False
    assert values["hosts"] == ["argue.example", "www.argue.example"]


POOL_PROBE = (
    "import json; from django.conf import settings as s; "
    "print(json.dumps(s.DATABASES['default'].get('OPTIONS', {}).get('pool')))"
)


def test_it_pools_postgresql_connections_only_when_asked() -> None:
    postgres = {"SECRET_KEY": "k", "DATABASE_URL": "postgres://u:p@db.example:5432/argue"}
    assert json.loads(_settings_with(probe=POOL_PROBE, **postgres).stdout) is None
    pooled = json.loads(
        _settings_with(probe=POOL_PROBE, DATABASE_POOL_SIZE="30", **postgres).stdout
    )
    assert pooled == {"min_size": 4, "max_size": 30, "timeout": 10}
