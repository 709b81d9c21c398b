from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LimitsConfig(AppConfig):
    name = "limits"
    verbose_name = _("Spending and abuse limits")
