from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EngineConfig(AppConfig):
    name = "engine"
    verbose_name = _("Debates")

    def ready(self) -> None:
        from engine import stopping  # noqa: F401  (registers the engine's stop sentences)
        from engine.models import Debate
        from engine.services import debate_cost
        from limits.services import register_spend_source

        # Every run of every format counts against its creator's quota, whatever its format.
        register_spend_source(name="debates", model=Debate, user_field="creator", cost=debate_cost)
