"""Load the demo stress test (scripted words, real semantics) unless it is already there."""

from django.core.management.base import BaseCommand

from stresstests.demo import load_demo_stress_test


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args, **options) -> None:
        stress, created = load_demo_stress_test()
        state = "loaded" if created else "already there"
        self.stdout.write(
            f"  demo stress test #{stress.pk} {stress.debate.output['status']}   [{state}]"
        )
