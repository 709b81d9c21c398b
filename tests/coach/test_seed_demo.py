"""seed_demo creates accounts with public passwords: only where that is safe."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]


def test_it_refuses_with_debug_off_in_a_real_process(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DATABASE_URL"}}
    env.update(SECRET_KEY="a-real-production-key", SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    result = subprocess.run(
        [sys.executable, "manage.py", "seed_demo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "DEBUG is off" in result.stderr
    assert "--allow-public-passwords" in result.stderr
    assert "Traceback" not in result.stderr
    assert "instructor-demo-pass" not in result.stdout


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_it_creates_no_account_when_it_refuses() -> None:
    with pytest.raises(CommandError):
        call_command("seed_demo")
    assert not get_user_model().objects.exists()


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_it_creates_the_demo_accounts_in_debug() -> None:
    call_command("seed_demo")
    users = get_user_model().objects.order_by("username")
    assert [(u.username, u.is_staff) for u in users] == [("instructor", True), ("student", False)]
    # A teacher, not the site's operator: no superuser with public passwords.
    assert not any(u.is_superuser for u in users)


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_it_creates_them_with_debug_off_when_told_explicitly() -> None:
    call_command("seed_demo", "--allow-public-passwords")
    assert get_user_model().objects.filter(username="student").exists()
