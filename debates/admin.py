"""The instructors' view of debates: personas (editable), debates and their costs (read-only).

A debate is a record of what happened: its arguments, attacks, validations,
events and model calls are shown read-only, because editing any of them would
make the stored outcome disagree with the graph it was computed from. Debates
are started from the site (which checks the key and enqueues them), not added
here. Personas are the instructors' to write: new debates use them as they are.

Costs: every debate shows its total and a breakdown per model; the model-call
ledger lists every call with totals per model for whatever is filtered.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from config.admin_tools import ReadOnlyInline, ViewOnlyMixin
from config.money import format_money
from debates.models import Attack, AttackValidation, DebateArgument
from engine.models import Debate, DebateEvent, LLMCall, Persona
from engine.stop_messages import stop_sentence

__all__ = ["cost_by_model"]


def cost_by_model(calls: QuerySet[LLMCall]) -> list[dict[str, Any]]:
    """Calls, tokens and dollars per model, most expensive first."""
    return list(
        calls.values("model")
        .annotate(
            calls=Count("id"),
            input_tokens=Sum("input_tokens"),
            output_tokens=Sum("output_tokens"),
            cost=Sum("cost_usd"),
        )
        .order_by("-cost", "model")
    )


def _pretty_json(value: Any) -> str:
    return format_html("<pre class='debate-json'>{}</pre>", json.dumps(value, indent=2))


class ArgumentInline(ReadOnlyInline):
    model = DebateArgument
    fields = ("key", "speaker", "round", "origin", "claim", "premises", "assumptions", "evidence")
    readonly_fields = fields


class AttackInline(ReadOnlyInline):
    model = Attack
    fk_name = "debate"
    fields = (
        "round",
        "speaker",
        "edge",
        "type",
        "target_component",
        "target_index",
        "confidence",
        "status",
        "drop_reason",
        "validation_verdict",
        "counter_proposition",
    )
    readonly_fields = fields
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet[Attack]:
        return (
            super()
            .get_queryset(request)
            .select_related("speaker", "from_argument", "to_argument", "validation")
        )

    @admin.display(description=_("edge"))
    def edge(self, attack: Attack) -> str:
        source = attack.from_argument.key if attack.from_argument_id else "—"
        target = attack.to_argument.key if attack.to_argument_id else f"{attack.target_key}?"
        return f"{source} → {target}"

    @admin.display(description=_("validation"))
    def validation_verdict(self, attack: Attack) -> str:
        validation = getattr(attack, "validation", None)
        if validation is None:
            return "—"
        verdict = _("valid") if validation.valid else _("invalid")
        corrections = f" · {validation.corrections}" if validation.corrections else ""
        return f"{verdict} ({validation.strength:.2f}){corrections}"


class EventInline(ReadOnlyInline):
    model = DebateEvent
    fields = ("seq", "type", "created_at", "payload_json")
    readonly_fields = fields
    classes = ("collapse",)

    @admin.display(description=_("payload"))
    def payload_json(self, event: DebateEvent) -> str:
        return _pretty_json(event.payload)


class CallInline(ReadOnlyInline):
    model = LLMCall
    fields = (
        "stage",
        "round",
        "persona",
        "model",
        "status",
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cost_usd",
        "latency_ms",
        "error_code",
    )
    readonly_fields = fields


@admin.register(Persona)
class PersonaAdmin(admin.ModelAdmin):
    list_display = ("name", "model_or_default", "active", "debate_count", "updated_at")
    list_editable = ("active",)
    list_filter = ("active",)
    search_fields = ("name", "worldview")
    fields = ("name", "worldview", "model", "active")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Persona]:
        return super().get_queryset(request).annotate(debate_total=Count("debates"))

    @admin.display(description=_("model"))
    def model_or_default(self, persona: Persona) -> str:
        return persona.model or _("(site default: %(model)s)") % {"model": persona.effective_model}

    @admin.display(description=_("debates"), ordering="debate_total")
    def debate_count(self, persona: Persona) -> int:
        return persona.debate_total


@admin.register(Debate)
class DebateAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "short_topic",
        "status",
        "stop_reason",
        "rounds",
        "total_cost",
        "calls",
        "is_demo",
        "creator",
        "created_at",
    )
    list_filter = ("format", "status", "stop_reason", "is_demo", "created_at")
    search_fields = ("topic", "creator__username")
    date_hierarchy = "created_at"
    inlines = (ArgumentInline, AttackInline, EventInline, CallInline)
    fieldsets = (
        (None, {"fields": ("topic", "personas", "creator", "is_demo")}),
        (_("Limits"), {"fields": ("max_rounds", "budget_usd")}),
        (
            _("Outcome"),
            {
                "fields": (
                    "status",
                    "stop_reason",
                    "stop_said",
                    "rounds_completed",
                    "failure",
                    "error",
                )
            },
        ),
        (_("Cost"), {"fields": ("cost_usd", "cost_per_model")}),
        (_("Time"), {"fields": ("created_at", "started_at", "finished_at")}),
        (_("Output"), {"classes": ("collapse",), "fields": ("claims_json", "output_json")}),
    )
    readonly_fields = (
        "topic",
        "personas",
        "creator",
        "is_demo",
        "max_rounds",
        "budget_usd",
        "status",
        "stop_reason",
        "stop_said",
        "rounds_completed",
        "failure",
        "error",
        "cost_usd",
        "cost_per_model",
        "created_at",
        "started_at",
        "finished_at",
        "claims_json",
        "output_json",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Debate]:
        return (
            super()
            .get_queryset(request)
            .select_related("creator")
            .annotate(call_total=Count("llm_calls", distinct=True))
        )

    @admin.display(description=_("topic"), ordering="topic")
    def short_topic(self, debate: Debate) -> str:
        return debate.topic if len(debate.topic) <= 70 else debate.topic[:69] + "…"

    @admin.display(description=_("rounds"))
    def rounds(self, debate: Debate) -> str:
        return f"{debate.rounds_completed} / {debate.max_rounds}"

    @admin.display(description=_("cost (USD)"), ordering="cost_usd")
    def total_cost(self, debate: Debate) -> str:
        return format_money(debate.cost_usd, 4)

    @admin.display(description=_("calls"), ordering="call_total")
    def calls(self, debate: Debate) -> int:
        return debate.call_total

    @admin.display(description=_("stop detail"))
    def stop_said(self, debate: Debate) -> str:
        """Why it stopped, in the admin's language (older rows: the stored English)."""
        return stop_sentence(debate.stop_code, debate.stop_params) or debate.stop_detail or "—"

    @admin.display(description=_("cost per model"))
    def cost_per_model(self, debate: Debate) -> str:
        rows = cost_by_model(debate.llm_calls.all())
        if not rows:
            return "—"
        return format_html(
            "<table class='cost-per-model'><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>"
            "{}</table>",
            _("model"),
            _("calls"),
            _("tokens in / out"),
            _("cost (USD)"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{} / {}</td><td>{}</td></tr>",
                (
                    (
                        row["model"],
                        row["calls"],
                        row["input_tokens"],
                        row["output_tokens"],
                        format_money(row["cost"] or Decimal(0), 4),
                    )
                    for row in rows
                ),
            ),
        )

    @admin.display(description=_("claims"))
    def claims_json(self, debate: Debate) -> str:
        return _pretty_json(debate.claims)

    @admin.display(description=_("output"))
    def output_json(self, debate: Debate) -> str:
        return _pretty_json(debate.output)


class ValidationInline(ViewOnlyMixin, admin.StackedInline):
    model = AttackValidation
    can_delete = False
    fields = ("valid", "strength", "corrections", "checks", "created_at")
    readonly_fields = fields


@admin.register(Attack)
class AttackAdmin(ViewOnlyMixin, admin.ModelAdmin):
    """One attack with its validation; reached from its debate's page."""

    list_display = ("id", "debate", "round", "speaker", "type", "status")
    list_filter = ("type", "status", "round")
    list_select_related = ("debate", "speaker")
    inlines = (ValidationInline,)

    def get_readonly_fields(self, request: HttpRequest, obj: Attack | None = None) -> list[str]:
        return [field.name for field in Attack._meta.fields]


@admin.register(LLMCall)
class LLMCallAdmin(ViewOnlyMixin, admin.ModelAdmin):
    """The cost ledger: every model call, with totals per model for the current filter."""

    list_display = (
        "created_at",
        "debate",
        "stage",
        "round",
        "persona",
        "model",
        "status",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "latency_ms",
    )
    list_filter = ("model", "stage", "status")
    list_select_related = ("debate", "persona")
    search_fields = ("debate__topic", "model", "request_hash")
    date_hierarchy = "created_at"
    exclude = ("raw_text",)

    def get_readonly_fields(self, request: HttpRequest, obj: LLMCall | None = None) -> list[str]:
        return [field.name for field in LLMCall._meta.fields if field.name != "raw_text"]

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None):
        response = super().changelist_view(request, extra_context=extra_context)
        # Totals follow the filters the instructor picked (the changelist's own queryset).
        if isinstance(response, HttpResponse) and hasattr(response, "context_data"):
            changelist = response.context_data.get("cl")
            if changelist is not None:
                queryset = changelist.get_queryset(request)
                response.context_data["cost_by_model"] = cost_by_model(queryset)
                response.context_data["cost_total"] = queryset.aggregate(total=Sum("cost_usd"))[
                    "total"
                ] or Decimal(0)
        return response
