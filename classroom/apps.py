from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = _("Classroom")

    def ready(self) -> None:
        from classroom.policy import turn_policy
        from coach.policy import register_policy_source

        register_policy_source(turn_policy)

        from django.db.models.signals import post_migrate

        from classroom.signals import instructors_group_after_migrate

        # After auth has made this app's permissions (its handler runs first).
        post_migrate.connect(
            instructors_group_after_migrate, sender=self, dispatch_uid="classroom.instructors"
        )
