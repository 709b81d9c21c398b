import math

from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete
from django.utils.translation import gettext_lazy as _


def _sqlite_ln(sender, connection, **kwargs) -> None:
    """Give SQLite ``LN`` (casefiles.retrieval) where it was built without math functions."""
    if connection.vendor != "sqlite":
        return
    import sqlite3

    try:
        connection.connection.execute("SELECT LN(1)").fetchone()
    except sqlite3.OperationalError:
        connection.connection.create_function("LN", 1, math.log, deterministic=True)


class CasefilesConfig(AppConfig):
    name = "casefiles"
    verbose_name = _("Case files")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        connection_created.connect(_sqlite_ln, dispatch_uid="casefiles_sqlite_ln")
        from casefiles.models import Source
        from casefiles.search_index import rebuild_after_commit

        # A source's spans leave the case file's word index with it (casefiles.search_index).
        post_delete.connect(
            rebuild_after_commit, sender=Source, dispatch_uid="casefiles_search_index"
        )
