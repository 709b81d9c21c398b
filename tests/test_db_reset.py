"""The quick reset after a transactional test leaves the database as the migrations left it."""

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from classroom.services import ensure_instructors_group
from engine.models import Persona
from tests import db_reset


@pytest.fixture
def flushed() -> Iterator[db_reset.Baseline]:
    """The database as Django's flush leaves it (post_migrate's rows only), remembered
    for this test; the migrated database is what later tests get back."""
    migrated = db_reset._baselines[connection.alias]
    call_command("flush", verbosity=0, interactive=False)
    baseline = db_reset._snapshot(connection)
    db_reset._baselines[connection.alias] = baseline
    yield baseline
    db_reset._baselines[connection.alias] = migrated


@pytest.mark.django_db(transaction=True)
def test_it_remembers_the_migrated_database_with_its_data_migrations_rows() -> None:
    baseline = db_reset._baselines[connection.alias]
    name = baseline.columns["debates_persona"].index("name")
    personas = {row[name] for row in baseline.rows["debates_persona"].values()}
    assert {"The Empiricist", "The Guardian", "The Innovator", "The Advocate"} <= personas
    Persona.objects.all().delete()
    Persona.objects.create(name="Tester", worldview="Checks everything.")

    assert db_reset._delete_written_rows(connection.alias)

    assert db_reset._snapshot(connection) == baseline
    assert Persona.objects.filter(name="The Guardian").exists()


@pytest.mark.django_db(transaction=True)
def test_it_empties_what_a_test_wrote_and_puts_post_migrates_rows_back(flushed) -> None:
    assert set(flushed.rows) >= {"django_content_type", "auth_permission"}
    user = get_user_model().objects.create_user("someone", password="x" * 12)
    group = Group.objects.create(name="readers")
    user.groups.add(group)
    Persona.objects.create(name="Tester", worldview="Checks everything.")
    # A test that makes an instructor gives the group the permissions of every app
    # (post_migrate made it when only some apps had theirs).
    instructors = ensure_instructors_group()
    assert instructors.permissions.count() > 0
    instructors.permissions.set(Permission.objects.all())
    renamed = ContentType.objects.get_for_model(Persona)
    renamed.model = "renamed"
    renamed.save()

    assert db_reset._delete_written_rows(connection.alias)

    assert db_reset._snapshot(connection) == flushed
    assert ContentType.objects.get_for_model(Persona).pk == renamed.pk


@pytest.mark.django_db(transaction=True)
def test_it_asks_for_the_full_flush_when_a_table_holds_many_rows(flushed) -> None:
    Persona.objects.bulk_create(
        Persona(name=f"P{n}", worldview="w") for n in range(db_reset.MANY_ROWS + 1)
    )

    assert not db_reset._delete_written_rows(connection.alias)
    assert Persona.objects.count() == db_reset.MANY_ROWS + 1
