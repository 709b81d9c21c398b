"""Verify an inquiry's audit chain: exit 0 when it holds, 1 at the first broken record."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from inquiries.audit import verify_chain
from inquiries.models import AuditRecord, Inquiry


class Command(BaseCommand):
    help = "Recompute an inquiry's audit hashes and report the first tampered or missing link."

    def add_arguments(self, parser) -> None:
        parser.add_argument("inquiry_id", type=int, help="The inquiry's (debate's) id.")

    def handle(self, *args, inquiry_id: int, **options) -> None:
        if not Inquiry.objects.filter(pk=inquiry_id).exists():
            raise CommandError(f"No inquiry {inquiry_id}.", returncode=2)
        count = AuditRecord.objects.filter(inquiry_id=inquiry_id).count()
        problems = verify_chain(inquiry_id)
        if problems:
            first = problems[0]
            raise CommandError(
                f"Audit chain broken at record #{first.seq} ({first.node}): {first.what}.",
                returncode=1,
            )
        self.stdout.write(f"Audit chain of inquiry {inquiry_id} holds: {count} records.")
