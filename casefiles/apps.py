from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CasefilesConfig(AppConfig):
    name = "casefiles"
    verbose_name = _("Case files")
    default_auto_field = "django.db.models.BigAutoField"
