"""Start again every debate whose worker or thread died (expired lease, or never claimed)."""

from django.core.management.base import BaseCommand

from debates.services import resume_stale_debates


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args, **options):
        ids = resume_stale_debates()
        self.stdout.write(
            f"Relaunched {len(ids)} debate(s): {ids}" if ids else "Nothing to resume."
        )
