"""The instructors' view of the coach: drafts, transcripts, what the guards did, costs.

Everything a student produced is read-only here: instructors read and export
it; they do not rewrite students' work behind their backs.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet, Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language_info, gettext
from django.utils.translation import gettext_lazy as _

from coach.models import Argument, CoachMessage, CoachTurn, Language
from coach.steps import STEPS
from config.admin_tools import ReadOnlyInline, ViewOnlyMixin
from untrusted.spreadsheet import safe_writer


class CompletedFilter(admin.SimpleListFilter):
    title = _("completion")
    parameter_name = "completed"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("complete")), ("no", _("in progress"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "yes":
            return queryset.filter(completed_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(completed_at__isnull=True)
        return queryset


class LanguageFilter(admin.SimpleListFilter):
    """The argument's language, named in the reader's language (the choices are endonyms)."""

    title = _("language")
    parameter_name = "language__exact"  # the address Django's own filter used

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(code, get_language_info(code)["name_translated"]) for code in Language.values]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() in Language.values:
            return queryset.filter(language=self.value())
        return queryset


class TranscriptInline(ReadOnlyInline):
    model = CoachMessage
    verbose_name = _("message")
    verbose_name_plural = _("transcript")
    fields = ("created_at", "step", "role", "text")
    readonly_fields = fields
    ordering = ("created_at", "id")


def _json_block(value: Any) -> str:
    if value is None:
        return "—"  # nothing stored (a failed turn), not the JSON word "null"
    return format_html(
        '<pre class="argue-pre">{}</pre>',
        json.dumps(value, ensure_ascii=False, indent=1),
    )


class TurnInline(ReadOnlyInline):
    model = CoachTurn
    verbose_name = _("coach turn")
    verbose_name_plural = _("coach turns (what the model proposed and what each guard changed)")
    fields = ("created_at", "step", "coach", "outcome", "proposed", "guards", "usage")
    readonly_fields = fields
    ordering = ("created_at", "id")

    @admin.display(description=_("outcome"))
    def outcome(self, turn: CoachTurn) -> str:
        if turn.error_code:
            return format_html("<strong>{}</strong><br>{}", turn.error_code, turn.error_detail)
        return "ok"

    @admin.display(description=_("model proposed -> guarded"))
    def proposed(self, turn: CoachTurn) -> str:
        raw = (turn.raw_result or {}).get("proposedUpdate")
        kept = (turn.guarded_result or {}).get("proposedUpdate")
        return format_html(
            "<em>{}</em> {}<br><em>{}</em> {}",
            gettext("model:"),
            (raw or {}).get("value") or "—",
            gettext("after the guards:"),
            (kept or {}).get("value") or "—",
        )

    @admin.display(description=_("guard decisions"))
    def guards(self, turn: CoachTurn) -> str:
        return guard_list(turn)

    @admin.display(description=_("tokens / cost / latency"))
    def usage(self, turn: CoachTurn) -> str:
        return gettext(
            "%(model)s: %(input)s tokens in (cache: %(written)s written, %(read)s read), "
            "%(output)s out; $%(cost)s; %(ms)s ms"
        ) % {
            "model": turn.model,
            "input": turn.input_tokens,
            "written": turn.cache_creation_input_tokens,
            "read": turn.cache_read_input_tokens,
            "output": turn.output_tokens,
            "cost": turn.cost_usd,
            "ms": turn.latency_ms,
        }


def guard_summary(turn: CoachTurn) -> str:
    """One line for a turn's guards: how many changed the reply, and which."""
    changed = [d.get("name", "") for d in turn.guard_decisions or [] if d.get("changed")]
    if not changed:
        return str(_("guards: no change"))
    return str(_("guards changed the reply: %(names)s")) % {"names": ", ".join(changed)}


def guard_list(turn: CoachTurn) -> str:
    """Each guard, marked when it changed the reply, with its reason; collapsed to one line."""
    return format_html(
        '<details class="argue-guards"><summary>{}</summary><ol class="argue-list">{}</ol>'
        "</details>",
        guard_summary(turn),
        format_html_join(
            "",
            "<li>{}{}: {}</li>",
            (
                ("✎ " if d.get("changed") else "", d.get("name", ""), d.get("reason", ""))
                for d in turn.guard_decisions or []
            ),
        ),
    )


# Costs are stored to the micro-dollar; SQLite's SUM would print float noise.
COST_QUANTUM = Decimal("0.000001")

CSV_COLUMNS = (
    ["id", "student", "title", "language", "current_step", "completed_at", "created_at"]
    + [column for step in STEPS for column in (step.field, f"{step.field}_provenance")]
    + ["messages", "turns", "failed_turns", "cost_usd"]
)


@admin.register(Argument)
class ArgumentAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = (
        "title",
        "owner",
        "language_name",
        "current_step",
        "is_complete",
        "turn_count",
        "updated_at",
    )
    list_filter = (
        ("owner", admin.RelatedOnlyFieldListFilter),
        "current_step",
        CompletedFilter,
        LanguageFilter,
        "created_at",
        "updated_at",
    )
    search_fields = (
        "title",
        "owner__username",
        "owner__email",
        *(step.field for step in STEPS),
    )
    date_hierarchy = "created_at"
    list_select_related = ("owner",)
    readonly_fields = (
        "owner",
        "title",
        "language_name",
        "current_step",
        "completed_at",
        "created_at",
        "updated_at",
        "draft_with_provenance",
        "pending",
    )
    fields = readonly_fields
    inlines = (TranscriptInline, TurnInline)
    actions = ("export_csv",)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(_turns=Count("turns", distinct=True))

    @admin.display(boolean=True, description=_("complete"), ordering="completed_at")
    def is_complete(self, argument: Argument) -> bool:
        return argument.completed_at is not None

    @admin.display(description=_("language"), ordering="language")
    def language_name(self, argument: Argument) -> str:
        """The argument's language named in the reader's ("inglés" on a Spanish page)."""
        return get_language_info(argument.language)["name_translated"]

    @admin.display(description=_("turns"), ordering="_turns")
    def turn_count(self, argument: Argument) -> int:
        return argument._turns

    @admin.display(description=_("draft (provenance per field)"))
    def draft_with_provenance(self, argument: Argument) -> str:
        return format_html(
            "<table><tbody>{}</tbody></table>",
            format_html_join(
                "",
                "<tr><th>{}</th><td>{}</td><td><em>{}</em></td></tr>",
                (
                    (
                        step.label_en,
                        getattr(argument, step.field) or "—",
                        argument.provenance.get(step.field, ""),
                    )
                    for step in STEPS
                ),
            ),
        )

    @admin.display(description=_("pending proposal"))
    def pending(self, argument: Argument) -> str:
        if not argument.pending_proposal:
            return "—"
        return _json_block(argument.pending_proposal)

    @admin.action(description=_("Export selected arguments as CSV"))
    def export_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="arguments-{stamp}.csv"'
        # Students' text is opened in Excel by instructors: no cell may be a formula.
        writer = safe_writer(response)
        writer.writerow(CSV_COLUMNS)
        rows = queryset.select_related("owner").annotate(
            _messages=Count("messages", distinct=True),
            _all_turns=Count("turns", distinct=True),
        )
        for argument in rows.order_by("id"):
            turns = argument.turns.all()
            writer.writerow(
                [
                    argument.pk,
                    argument.owner.get_username(),
                    argument.title,
                    argument.language,
                    argument.current_step,
                    argument.completed_at.isoformat() if argument.completed_at else "",
                    argument.created_at.isoformat(),
                    *(
                        value
                        for step in STEPS
                        for value in (
                            getattr(argument, step.field),
                            argument.provenance.get(step.field, ""),
                        )
                    ),
                    argument._messages,
                    argument._all_turns,
                    turns.exclude(error_code="").count(),
                    (turns.aggregate(total=Sum("cost_usd"))["total"] or Decimal(0)).quantize(
                        COST_QUANTUM
                    ),
                ]
            )
        return response


@admin.register(CoachTurn)
class CoachTurnAdmin(ViewOnlyMixin, admin.ModelAdmin):
    """Every model reply across students: failures, costs, what the guards changed."""

    list_display = (
        "created_at",
        "argument",
        "step",
        "coach",
        "model",
        "error_code",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "latency_ms",
    )
    list_filter = ("coach", "step", "error_code", "model", "created_at")
    search_fields = ("argument__title", "argument__owner__username", "error_detail")
    date_hierarchy = "created_at"
    list_select_related = ("argument",)
    readonly_fields = (
        "argument",
        "user_message",
        "assistant_message",
        "step",
        "coach",
        "model",
        "error_code",
        "error_detail",
        "raw",
        "guarded",
        "decisions",
        "input_tokens",
        "output_tokens",
        "cache_creation_input_tokens",
        "cache_read_input_tokens",
        "cost_usd",
        "latency_ms",
        "created_at",
    )
    fields = readonly_fields

    @admin.display(description=_("raw result"))
    def raw(self, turn: CoachTurn) -> str:
        return _json_block(turn.raw_result)

    @admin.display(description=_("guarded result"))
    def guarded(self, turn: CoachTurn) -> str:
        return _json_block(turn.guarded_result)

    @admin.display(description=_("guard decisions"))
    def decisions(self, turn: CoachTurn) -> str:
        return guard_list(turn)
