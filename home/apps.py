from django.apps import AppConfig


class HomeConfig(AppConfig):
    """The site's front door: the public page, where sign-in lands, a student's own page."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "home"
