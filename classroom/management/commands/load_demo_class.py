"""manage.py load_demo_class [--instructor NAME] [--student NAME]: the demo class, once."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from classroom.demo import load_demo_class


class Command(BaseCommand):
    help = "Make the demo class (taught by the demo instructor, the demo student a member)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--instructor", default="instructor")
        parser.add_argument("--student", default="student")

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model().objects
        instructor = users.filter(username=options["instructor"]).first()
        if instructor is None:
            raise CommandError(f"no user named {options['instructor']!r}: run seed_demo first")
        student = users.filter(username=options["student"]).first()
        classroom = load_demo_class(instructor=instructor, student=student)
        self.stdout.write(
            f"  demo class #{classroom.pk} {classroom.name!r}, join code {classroom.join_code}"
        )
