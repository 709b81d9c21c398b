"""`python manage.py resume_trials`: run again the trials a restart or a dead worker left behind."""

from django.core.management.base import BaseCommand

from config.background import uses_broker, wait_for_background
from trials.runner import STALE_AFTER
from trials.services import resume_stale_trials


class Command(BaseCommand):
    help = f"Start again every trial pending or running for more than {STALE_AFTER}."

    def handle(self, *args, **options) -> None:
        resumed = resume_stale_trials()
        self.stdout.write(f"resumed {len(resumed)} trial(s): {resumed}")
        if resumed and not uses_broker():
            # Without a broker the trials run in this process's threads: leaving
            # now would kill them. With one, the workers have them already.
            self.stdout.write("running them here until they finish…")
            wait_for_background()
            self.stdout.write("done.")
