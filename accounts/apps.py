from django.apps import AppConfig
from django.contrib.auth.signals import user_login_failed

from accounts import limits


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        user_login_failed.connect(limits.count_failed_login, dispatch_uid="accounts.failed_login_per_address")
