"""manage.py setup_instructors [username ...]: the Instructors group, and who is in it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from classroom.services import ensure_instructors_group, make_instructor


class Command(BaseCommand):
    help = "Create or repair the Instructors group; make the named users instructors (staff)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("usernames", nargs="*")

    def handle(self, *args: Any, usernames: list[str], **options: Any) -> None:
        group = ensure_instructors_group()
        self.stdout.write(f"{group.name}: {group.permissions.count()} permissions")
        for username in usernames:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"no user named {username!r}")
            make_instructor(user=user)
            self.stdout.write(f"{username} is an instructor")
