from django.apps import AppConfig


class StresstestsConfig(AppConfig):
    name = "stresstests"
    verbose_name = "Stress tests"

    def ready(self) -> None:
        from debates.events import register_event_types
        from debates.formats import register_format
        from stresstests.stages import EVENT_TYPES
        from stresstests.stress_format import STRESS

        # Spending: a stress test is a debates.Debate row, already a spend source.
        register_format(STRESS)
        register_event_types(*EVENT_TYPES)
