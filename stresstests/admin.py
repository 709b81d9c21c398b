"""Instructors find a student's stress tests here, each linked to its page."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from stresstests.models import Defence, StressTest


class DefenceInline(admin.TabularInline):
    model = Defence
    extra = 0
    fields = ("seq", "attack", "text", "status", "reason", "explanation", "node")
    readonly_fields = fields
    can_delete = False


@admin.register(StressTest)
class StressTestAdmin(admin.ModelAdmin):
    list_display = ("argument", "student", "status", "created_at", "page")
    list_filter = ("debate__status",)
    search_fields = ("argument__title", "student__username")
    readonly_fields = ("debate", "argument", "student", "elements", "round_limit", "page")
    inlines = [DefenceInline]

    @admin.display(description=_("status"))
    def status(self, obj: StressTest) -> str:
        return obj.debate.get_status_display()

    @admin.display(description=_("page"))
    def page(self, obj: StressTest) -> str:
        return format_html(
            '<a href="{}">{}</a>', reverse("stresstests:detail", args=[obj.pk]), _("open")
        )

    def has_add_permission(self, request) -> bool:
        return False
