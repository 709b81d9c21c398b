"""Admin building blocks shared by the apps: students' work and records are view-only.

Instructors read drafts, transcripts, debates and trials in the admin; nobody
edits or deletes them there, because a record must keep matching what
happened (a student's work, a turn, a debate event, a ledger row): no Delete
button, no delete action. Removing an account still removes its work (the
foreign keys cascade).
"""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

__all__ = ["ViewOnlyMixin", "ReadOnlyInline"]


class ViewOnlyMixin:
    """No adding, no changing, no deleting: for ModelAdmins and inlines alike."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(ViewOnlyMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False
