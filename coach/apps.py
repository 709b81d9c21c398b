from django.apps import AppConfig
from django.db.backends.signals import connection_created


class CoachConfig(AppConfig):
    name = "coach"
    verbose_name = "Toulmin coach"

    def ready(self) -> None:
        from coach.sqlite_wal import keep_wal_open

        # Site-wide in effect; see coach/sqlite_wal.py for why it is connected here.
        connection_created.connect(keep_wal_open, dispatch_uid="coach.sqlite_wal")
