"""Load the demo trial (scripted words, the real chain) unless it is already there."""

from django.core.management.base import BaseCommand

from stresstests.demo import demo_argument
from trials.demo import load_demo_trial


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args, **options) -> None:
        # The demo student's finished argument, the one the demo stress test attacks.
        trial, created = load_demo_trial(argument=demo_argument())
        state = "loaded" if created else "already there"
        self.stdout.write(f"  demo trial #{trial.pk} {trial.status}   [{state}]")
