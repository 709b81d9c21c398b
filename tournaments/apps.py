from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from debates.formats import register_format
        from tournaments.format import TOURNAMENT

        register_format(TOURNAMENT)
