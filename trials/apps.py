from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrialsConfig(AppConfig):
    name = "trials"
    verbose_name = _("Trials (four-phase verdicts)")

    def ready(self) -> None:
        from limits.services import register_spend_source
        from trials.models import Trial
        from trials.services import trial_cost

        register_spend_source(name="trials", model=Trial, user_field="owner", cost=trial_cost)
