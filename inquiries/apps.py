from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InquiriesConfig(AppConfig):
    name = "inquiries"
    verbose_name = _("Inquiries")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from engine.formats import register_format
        from engine.stop_messages import register_stage_labels
        from inquiries.format import INQUIRY
        from inquiries.graph import RESEND
        from inquiries.presenters import NODE_LABELS

        register_format(INQUIRY)
        # A stop's "stage" parameter (the budget's "next stage") in people's words,
        # a node sent back for a second attempt included.
        register_stage_labels(
            {**NODE_LABELS, **{f"{name}{RESEND}": label for name, label in NODE_LABELS.items()}}
        )
