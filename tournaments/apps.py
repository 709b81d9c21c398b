from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from engine.formats import register_format
        from tournaments.format import TOURNAMENT

        register_format(TOURNAMENT)
