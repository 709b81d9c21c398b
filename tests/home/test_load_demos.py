"""`make run` loads every demo with one command; a second time it only checks."""

from __future__ import annotations

from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command


def _counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.mark.django_db
def test_it_loads_every_demo_once_and_skips_them_the_second_time(settings) -> None:
    settings.DEBUG = True  # seed_demo refuses public passwords otherwise
    call_command("load_demos", stdout=StringIO())
    first = _counts()
    for label in ("engine.Debate", "classroom.Classroom", "discussions.Discussion"):
        assert first[label] > 0, label
    call_command("load_demos", stdout=StringIO())
    assert _counts() == first


@pytest.mark.django_db
def test_it_knows_when_no_migration_is_pending() -> None:
    from home.management.commands.load_demos import migrations_pending

    # The test database is made by migrating every app: nothing is left to apply.
    assert migrations_pending() is False


@pytest.mark.django_db(transaction=True)
def test_it_migrates_first_when_a_migration_is_pending(settings) -> None:
    from home.management.commands.load_demos import migrations_pending

    settings.DEBUG = True
    call_command("migrate", "feedback", "zero", verbosity=0)
    assert migrations_pending() is True
    call_command("load_demos", stdout=StringIO())
    assert migrations_pending() is False
