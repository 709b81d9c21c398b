"""manage.py load_demo_discussion: the demo discussion in the demo class, once."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from discussions.demo import load_demo_discussion


class Command(BaseCommand):
    help = "Make the demo discussion in the demo class (run load_demo_class first)."

    def handle(self, *args: Any, **options: Any) -> None:
        discussion = load_demo_discussion()
        if discussion is None:
            raise CommandError("no demo class: run load_demo_class first")
        self.stdout.write(f"  demo discussion #{discussion.pk} {discussion.title!r}")
