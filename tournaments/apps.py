from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from debates.events import register_event_types
        from debates.formats import register_format
        from tournaments.events import EVENT_TYPES
        from tournaments.format import TOURNAMENT

        register_format(TOURNAMENT)
        register_event_types(*EVENT_TYPES)
