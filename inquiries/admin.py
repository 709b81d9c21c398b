"""Instructors' view of inquiries: the registry, the gates' catches and the audit chain.

Everything here was computed by a run: read-only, and nothing can be deleted
on its own (deleting the debate deletes its inquiry and all of this).
"""

from __future__ import annotations

from django.contrib import admin
from django.db import connections
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext_lazy as _

from argumentation.sanad import DefectCode
from inquiries.models import (
    AgentOutput,
    AuditRecord,
    Calc,
    GateViolation,
    Inquiry,
    RegisteredClaim,
    RetrievedEvidence,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class DefectCodeFilter(admin.SimpleListFilter):
    """Claims with at least one defect of a given code (``defects`` is a JSON list of objects)."""

    title = _("defect")
    parameter_name = "defect"

    def lookups(self, request, model_admin) -> list[tuple[str, str]]:
        return [(code.value, code.value) for code in DefectCode]

    def queryset(self, request, queryset):
        code = self.value()
        if code not in {c.value for c in DefectCode}:
            return queryset
        if connections[queryset.db].features.supports_json_field_contains:
            return queryset.filter(defects__contains=[{"code": code}])
        # SQLite has no JSON containment lookup: match the stored text instead. Both
        # Django's json.dumps (SQLite) and jsonb's output write a key as `"code": "X"`,
        # and codes are fixed upper-case words, so this finds the same claims.
        as_text = Cast("defects", output_field=TextField())
        return queryset.alias(defects_text=as_text).filter(
            defects_text__contains=f'"code": "{code}"'
        )


@admin.register(Inquiry)
class InquiryAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "case_file", "language", "advocate_model", "arbiter_model")
    search_fields = ("debate__topic",)
    raw_id_fields = ("debate", "case_file")


@admin.register(RegisteredClaim)
class RegisteredClaimAdmin(ReadOnlyAdmin):
    list_display = ("key", "inquiry", "grade", "registered_by", "round", "text")
    list_filter = ("grade", DefectCodeFilter, "registered_by")
    search_fields = ("text", "key")
    readonly_fields = (
        "inquiry",
        "key",
        "text",
        "registered_by",
        "round",
        "chains",
        "grade",
        "defects",
    )


@admin.register(Calc)
class CalcAdmin(ReadOnlyAdmin):
    list_display = ("key", "inquiry", "op", "result", "registered_by", "round")


@admin.register(AgentOutput)
class AgentOutputAdmin(ReadOnlyAdmin):
    list_display = (
        "inquiry",
        "round",
        "node",
        "agent",
        "attempt",
        "accepted",
        "dropped",
        "confidence",
    )
    list_filter = ("accepted", "dropped", "agent", "node")


@admin.register(GateViolation)
class GateViolationAdmin(ReadOnlyAdmin):
    list_display = ("rule", "inquiry", "output", "detail")
    list_filter = ("rule",)


@admin.register(RetrievedEvidence)
class RetrievedEvidenceAdmin(ReadOnlyAdmin):
    list_display = ("inquiry", "round", "query", "span_keys")


@admin.register(AuditRecord)
class AuditRecordAdmin(ReadOnlyAdmin):
    list_display = ("inquiry", "seq", "node", "round", "record_hash")
    readonly_fields = (
        "inquiry",
        "seq",
        "node",
        "round",
        "input_hash",
        "output_hash",
        "prev_hash",
        "record_hash",
        "payload",
    )
