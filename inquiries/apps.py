from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InquiriesConfig(AppConfig):
    name = "inquiries"
    verbose_name = _("Inquiries")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from engine.formats import register_format
        from inquiries.format import INQUIRY

        register_format(INQUIRY)
