"""Load the demo debate (debates/fixtures/demo_debate.json) unless it is already there."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from debates.demo import DEMO_FIXTURE, load_demo_debate


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--file", default=str(DEMO_FIXTURE), help="a debate JSON export (default: the demo)"
        )

    def handle(self, *args, **options) -> None:
        data = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
        debate, created = load_demo_debate(data=data)
        state = "loaded" if created else "already there"
        self.stdout.write(f"  demo debate #{debate.pk} {debate.topic!r}   [{state}]")
