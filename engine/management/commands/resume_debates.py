"""Start again every debate whose worker or thread died (expired lease, or never claimed)."""

from django.core.management.base import BaseCommand

from config.background import uses_broker, wait_for_background
from engine.services import resume_stale_debates


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args, **options):
        ids = resume_stale_debates()
        self.stdout.write(
            f"Relaunched {len(ids)} debate(s): {ids}" if ids else "Nothing to resume."
        )
        if ids and not uses_broker():
            # Without a broker the debates run in this process's threads: leaving
            # now would kill them. With one, the workers have them already.
            self.stdout.write("Running them here until they finish…")
            wait_for_background()
            self.stdout.write("Done.")
