from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Sign-in")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from accounts.throttle import count_failed_sign_in

        # Every failed authenticate() with a request: the sign-in form, the admin's.
        user_login_failed.connect(count_failed_sign_in, dispatch_uid="accounts.signin_address")
