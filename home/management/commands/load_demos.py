"""The database made ready for ``make run``: migrated, then every demo loaded.

``make run`` ran ``migrate`` and each demo loader as its own ``manage.py``
call: eleven Python start-ups and Django set-ups before the first page, even
when everything was there already. Here it is one process: ``migrate`` only
when a migration is not applied yet (its checks and its post-migrate signals
cost seconds even with nothing to do), then the demo users, the instructor
and each ``load_demo_*``, each of which skips what is there.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor


def migrations_pending(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether ``migrate`` has anything to apply on the database ``alias``."""
    executor = MigrationExecutor(connections[alias])
    return bool(executor.migration_plan(executor.loader.graph.leaf_nodes()))


class Command(BaseCommand):
    help = "Migrate if needed, then load the demo users, the instructor and every demo."

    def handle(self, *args: Any, **options: Any) -> None:
        if migrations_pending():
            call_command("migrate", interactive=False, stdout=self.stdout, stderr=self.stderr)
        call_command("seed_demo", stdout=self.stdout, stderr=self.stderr)
        call_command("setup_instructors", "instructor", stdout=self.stdout, stderr=self.stderr)
        # Every loader there is, so a new demo is loaded without editing this command.
        for name in sorted(n for n in get_commands() if n.startswith("load_demo_")):
            call_command(name, stdout=self.stdout, stderr=self.stderr)
