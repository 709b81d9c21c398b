from django.apps import AppConfig


class DebatesConfig(AppConfig):
    name = "debates"
    verbose_name = "Debates"

    def ready(self) -> None:
        from debates.formats import register_format
        from debates.graph_format import GRAPH
        from debates.models import Debate
        from debates.services import debate_cost
        from limits.services import register_spend_source

        register_spend_source(name="debates", model=Debate, user_field="creator", cost=debate_cost)
        register_format(GRAPH)
