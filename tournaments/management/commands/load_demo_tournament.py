"""``manage.py load_demo_tournament``: load the recorded demo tournament once (idempotent)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from tournaments.demo import DEMO_FIXTURE, load_demo_tournament


class Command(BaseCommand):
    help = "Load the demo tournament (scripted models, real bracket, convergence and Elo) once."

    def handle(self, *args, **options) -> None:
        data = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))
        debate, created = load_demo_tournament(data=data)
        if created:
            self.stdout.write(f"Loaded the demo tournament ({debate.pk}).")
        else:
            self.stdout.write(f"The demo tournament is already there ({debate.pk}).")
