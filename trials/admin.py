"""Trials in the admin: filter by status and student, read each beside the argument's transcript.

Trials are records of what happened, so they are read-only here: students
start them, the chain fills them in. The coach's admin is not edited from
this app; instead a trial's page shows its argument's coach transcript.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from coach.models import CoachMessage
from config.admin_tools import ViewOnlyMixin
from trials.models import PHASES, Trial
from trials.phases import get_phase


def _pretty(value: object) -> str:
    if value is None:
        return "—"
    return format_html("<pre>{}</pre>", json.dumps(value, ensure_ascii=False, indent=2))


@admin.register(Trial)
class TrialAdmin(ViewOnlyMixin, admin.ModelAdmin):
    list_display = (
        "id",
        "owner",
        "subject_short",
        "status",
        "failure",
        "stopped_phase",
        "total_tokens",
        "cost_usd",
        "created_at",
    )
    list_filter = (
        "status",
        "failure",
        ("owner", admin.RelatedOnlyFieldListFilter),
        "created_at",
    )
    search_fields = ("owner__username", "question", "query", "argument__title", "reason")
    list_select_related = ("owner", "argument")
    date_hierarchy = "created_at"
    fieldsets = (
        (
            None,
            {
                "fields": (
                    "owner",
                    "argument_link",
                    "question",
                    "status",
                    "failure",
                    "stopped_phase",
                    "reason",
                )
            },
        ),
        (_("Beside the argument's transcript"), {"fields": ("query_text", "transcript")}),
        (_("Phases"), {"fields": ("phase1_json", "phase2_json", "phase3_json", "phase4_json")}),
        (
            _("Cost and time"),
            {
                "fields": (
                    "model",
                    "calls_table",
                    "input_tokens",
                    "output_tokens",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                    "cost_usd",
                    "created_at",
                    "started_at",
                    "finished_at",
                    "run_time",
                )
            },
        ),
    )
    # Every field shown is read-only: trials are records of what happened.
    readonly_fields = tuple(name for _title, options in fieldsets for name in options["fields"])

    @admin.display(description=_("duration"))
    def run_time(self, trial: Trial) -> str:
        return str(trial.duration) if trial.duration is not None else "—"

    @admin.display(description=_("on trial"))
    def subject_short(self, trial: Trial) -> str:
        return trial.subject[:80]

    @admin.display(description=_("argument"))
    def argument_link(self, trial: Trial) -> str:
        if trial.argument is None:
            return gettext("— (a free-text question)")
        try:
            url = reverse("admin:coach_argument_change", args=[trial.argument.pk])
        except NoReverseMatch:  # the coach's admin does not register Argument
            return trial.argument.title
        return format_html('<a href="{}">{}</a>', url, trial.argument.title)

    @admin.display(description=_("query sent to the chain"))
    def query_text(self, trial: Trial) -> str:
        return format_html('<pre class="argue-pre">{}</pre>', trial.query)

    @admin.display(description=_("coach transcript"))
    def transcript(self, trial: Trial) -> str:
        if trial.argument is None:
            return "—"
        messages = CoachMessage.objects.filter(argument=trial.argument).order_by("created_at", "id")
        if not messages:
            return gettext("(no messages)")
        rows = format_html_join(
            "",
            '<tr><td>{}</td><td>{}</td><td class="argue-wrap">{}</td></tr>',
            ((m.get_role_display(), m.step, m.text) for m in messages),
        )
        return format_html(
            "<table><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            gettext("who"),
            gettext("step"),
            gettext("text"),
            rows,
        )

    @admin.display(description=_("model calls"))
    def calls_table(self, trial: Trial) -> str:
        if not trial.calls:
            return "—"
        rows = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td></tr>",
            (
                (
                    c.get("phase"),
                    c.get("attempt"),
                    gettext("ok") if c.get("ok") else gettext("rejected"),
                    ", ".join(c.get("rules") or []) or "—",
                    gettext("%(input)s in / %(output)s out")
                    % {"input": c.get("input_tokens", 0), "output": c.get("output_tokens", 0)},
                    c.get("cost_usd"),
                    c.get("error") or "",
                    _rejected_reply(c.get("reply_text") or ""),
                )
                for c in trial.calls
            ),
        )
        return format_html(
            "<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>",
            format_html_join(
                "",
                "<th>{}</th>",
                (
                    (gettext("phase"),),
                    (gettext("try"),),
                    (gettext("result"),),
                    (gettext("rules"),),
                    (gettext("tokens"),),
                    ("USD",),
                    (gettext("error"),),
                    (gettext("rejected reply"),),
                ),
            ),
            rows,
        )


def _rejected_reply(text: str) -> str:
    """The model's rejected text, folded away: it can be long."""
    if not text:
        return "—"
    return format_html(
        '<details><summary>{}</summary><pre class="argue-pre">{}</pre></details>',
        ngettext("%(count)d character", "%(count)d characters", len(text)) % {"count": len(text)},
        text,
    )


def _phase_display(number: int):
    phase = get_phase(number)

    @admin.display(
        # The phase's title, as students read it (its MCP tool name is a code).
        description=format_lazy(_("phase {number}: {tool}"), number=number, tool=phase.title)
    )
    def show(self, trial: Trial) -> str:
        # The MCP tool's name for staff, marked as the code it is; then what it returned.
        return format_html(
            '<code lang="en">{}</code>{}', phase.tool, _pretty(trial.phase_output(number))
        )

    return show


for _number in PHASES:
    setattr(TrialAdmin, f"phase{_number}_json", _phase_display(_number))
