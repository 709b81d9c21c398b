"""Create the demo inquiry (once): the real pipeline on the demo case file, scripted words."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from inquiries.demo import load_demo_inquiry


class Command(BaseCommand):
    help = "Run the demo inquiry on the demo case file with a scripted model (idempotent)."

    def handle(self, *args, **options) -> None:
        debate = load_demo_inquiry()
        self.stdout.write(
            f"Demo inquiry {debate.pk}: {debate.status}, stopped {debate.stop_reason or '—'}."
        )
