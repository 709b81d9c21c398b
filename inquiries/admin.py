"""Instructors' view of inquiries: the registry, the gates' catches and the audit chain.

Everything here was computed by a run: read-only, and nothing can be deleted
on its own (deleting the debate deletes its inquiry and all of this).
"""

from __future__ import annotations

from django.contrib import admin

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


@admin.register(Inquiry)
class InquiryAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "case_file", "language", "advocate_model", "arbiter_model")
    search_fields = ("debate__topic",)
    raw_id_fields = ("debate", "case_file")


@admin.register(RegisteredClaim)
class RegisteredClaimAdmin(ReadOnlyAdmin):
    list_display = ("key", "inquiry", "grade", "registered_by", "round", "text")
    list_filter = ("grade", "registered_by")
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
