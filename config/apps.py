"""The admin app, with the site's own AdminSite (config/admin_tools.py: bounded search).

Its ready() also registers the site's own deployment checks (config/checks.py): config is
not an app of its own, and the admin is the one of its modules every deployment installs.
"""

from django.contrib.admin.apps import AdminConfig


class ArgueAdminConfig(AdminConfig):
    default_site = "config.admin_tools.BoundedSearchAdminSite"

    def ready(self) -> None:
        super().ready()
        from django.contrib.admin.templatetags import admin_list

        import config.checks  # noqa: F401  (registers the deployment checks)
        from config.admin_tools import boolean_icon

        # Django's yes/no icon reads "True" or "False" aloud in every language; the
        # admin's lists and read-only forms all call it through this module's name.
        admin_list._boolean_icon = boolean_icon
