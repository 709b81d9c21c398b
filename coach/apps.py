from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class CoachConfig(AppConfig):
    name = "coach"
    verbose_name = _("Toulmin coach")

    def ready(self) -> None:
        from coach.sqlite_wal import keep_wal_open

        # Site-wide in effect; see coach/sqlite_wal.py for why it is connected here.
        connection_created.connect(keep_wal_open, dispatch_uid="coach.sqlite_wal")

        from django.db.models import F

        from coach.models import CoachTurn
        from limits.services import register_spend_source

        # Every turn's cost, failed ones too: the model was paid for them.
        register_spend_source(
            name="coach",
            model=CoachTurn,
            user_field="argument__owner",
            cost=lambda: F("cost_usd"),
        )
