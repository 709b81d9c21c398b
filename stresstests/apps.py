from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StresstestsConfig(AppConfig):
    name = "stresstests"
    verbose_name = _("Stress tests")

    def ready(self) -> None:
        from engine.formats import register_format
        from stresstests.stress_format import STRESS

        # Spending: a stress test is an engine.Debate row, already a spend source.
        register_format(STRESS)
