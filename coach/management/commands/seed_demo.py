"""Create the demo instructor and student that `make run` prints, if absent."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_ACCOUNTS = [
    # (username, password, is_staff) — development credentials, printed on purpose.
    ("instructor", "instructor-demo-pass", True),
    ("student", "student-demo-pass", False),
]


class Command(BaseCommand):
    help = "Create a demo instructor (staff) and a demo student if they do not exist."

    def handle(self, *args, **options) -> None:
        User = get_user_model()
        for username, password, is_staff in DEMO_ACCOUNTS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": is_staff, "is_superuser": is_staff}
            )
            if created:
                user.set_password(password)
                user.save()
            state = "created" if created else "already there"
            role = "instructor (staff, /admin/)" if is_staff else "student"
            self.stdout.write(f"  {role:30} {username} / {password}   [{state}]")
