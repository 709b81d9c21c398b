"""Create the demo instructor and student that `make run` prints, if absent.

Their passwords are public (printed here and in the README), so the command
refuses to run on a production site: only with DEBUG on, or when the caller
says explicitly that public passwords are acceptable (a throw-away staging box).
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_ACCOUNTS = [
    # (username, password, is_staff) — development credentials, printed on purpose.
    ("instructor", "instructor-demo-pass", True),
    ("student", "student-demo-pass", False),
]


class Command(BaseCommand):
    help = "Create a demo instructor (staff) and a demo student if they do not exist."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--allow-public-passwords",
            action="store_true",
            help="Create the accounts even with DEBUG off, although their passwords are public.",
        )

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG and not options["allow_public_passwords"]:
            # CommandError: one line on stderr and exit status 1, no traceback.
            raise CommandError(
                "Refusing to create demo accounts with public passwords while DEBUG is off: "
                "anyone could sign in as the instructor. Run it with DEBUG=1 on a development "
                "machine, or pass --allow-public-passwords if this site is a throw-away demo."
            )
        User = get_user_model()
        for username, password, is_staff in DEMO_ACCOUNTS:
            # The instructor is staff, never a superuser: `setup_instructors` (make run)
            # puts them in the Instructors group, so the admin shows what a teacher
            # sees (their classes), not the site's infrastructure tables.
            user, created = User.objects.get_or_create(
                username=username, defaults={"is_staff": is_staff}
            )
            if created:
                user.set_password(password)
                user.save()
            state = "created" if created else "already there"
            role = "instructor (staff, /admin/)" if is_staff else "student"
            self.stdout.write(f"  {role:30} {username} / {password}   [{state}]")
