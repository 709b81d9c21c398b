from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DiscussionsConfig(AppConfig):
    name = "discussions"
    verbose_name = _("Class discussions")

    def ready(self) -> None:
        from django.db.models import F

        # Registers CoachOrigin and ObjectionCheck: small models of their own beside Post.
        from discussions.post_extras import ObjectionCheck
        from limits.services import register_spend_source

        # A running check counts at its reserve (saved in cost_usd until it ends).
        register_spend_source(
            name="discussion_checks",
            model=ObjectionCheck,
            user_field="requested_by",
            cost=lambda: F("cost_usd"),
        )
