from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Classroom"

    def ready(self) -> None:
        from classroom.policy import turn_policy
        from coach.policy import register_policy_source

        register_policy_source(turn_policy)
