from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DebatesConfig(AppConfig):
    name = "debates"
    verbose_name = _("Graph debate")

    def ready(self) -> None:
        from debates.graph_format import GRAPH
        from engine.formats import register_format

        register_format(GRAPH)
