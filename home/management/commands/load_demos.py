"""Every demo in one process: the demo users, the instructor and each ``load_demo_*``.

``make run`` ran each as its own ``manage.py`` call: ten Python start-ups and
Django set-ups (about 3.5 s each) before the first page, even when everything
was loaded already. Each loader skips what is there, so a second run only
checks; in one process that takes a few seconds.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo users, the demo instructor and every demo (each skips what is there)."

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("seed_demo", stdout=self.stdout, stderr=self.stderr)
        call_command("setup_instructors", "instructor", stdout=self.stdout, stderr=self.stderr)
        # Every loader there is, so a new demo is loaded without editing this command.
        for name in sorted(n for n in get_commands() if n.startswith("load_demo_")):
            call_command(name, stdout=self.stdout, stderr=self.stderr)
