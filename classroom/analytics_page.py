"""Turn a class analytics `Summary` into the page's figures: a chart and its table each.

Words are chosen here, in the page's language; numbers come from
``classroom.analytics`` and geometry from ``classroom.charts``. Each figure's
table holds exactly the numbers the chart draws, and more (the counts behind
a share), so that nothing is only in the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.analytics import Summary
from classroom.charts import BarChart, bar_chart
from classroom.grid import PROVENANCES
from classroom.presenters import page_language
from coach.models import Provenance
from coach.steps import label_for
from trials.models import TrialStatus

__all__ = ["Figure", "GUARD_LABELS", "figures"]

# What each guard does when it intervenes, in an instructor's words (coach.guards).
GUARD_LABELS = {
    "step_coercion": gettext_lazy("kept the reply on the current step"),
    "empty_value": gettext_lazy("dropped an empty proposal"),
    "question": gettext_lazy("answered a question instead of grading it"),
    "first_turn_bias": gettext_lazy("asked first instead of proposing"),
    "advance_gating": gettext_lazy("held back a move to the next step"),
    "next_step": gettext_lazy("corrected the next step"),
    "confirmation": gettext_lazy("re-attached a confirmed proposal"),
    "no_proposals": gettext_lazy("removed a proposal (hints only)"),
    "rejected": gettext_lazy("did not propose a rejected text again"),
    "criteria": gettext_lazy("held back a proposal missing a required criterion"),
    "judgment": gettext_lazy("held back a circular or copied text"),
    "complete": gettext_lazy("proposed nothing on a complete argument"),
    "schema": gettext_lazy("refused a malformed reply"),
    "question_appending": gettext_lazy("added the coach's question"),
}


@dataclass(frozen=True)
class Figure:
    key: str
    title: str
    note: str
    chart: BarChart
    legend: tuple[tuple[str, str], ...]  # (css class, name) for stacked bars
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # the first cell is the row's header


def _step(step: str) -> str:
    return label_for(step, page_language())


def _number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "—"
    if float(value).is_integer():
        return number_format(int(value))
    return number_format(value, digits)


def _percent(value: float) -> str:
    return f"{number_format(round(value))} %"


def _completion(summary: Summary) -> Figure:
    return Figure(
        key="completion",
        title=_("Completion per element"),
        note=_("Share of the expected arguments (%(seats)s) with the element done.")
        % {"seats": summary.seats},
        chart=bar_chart(
            [(_step(c.step), [c.percent], _percent(c.percent)) for c in summary.completion],
            high=100,
        ),
        legend=(),
        headers=(_("element"), _("done"), _("expected"), _("share")),
        rows=tuple(
            (_step(c.step), str(c.done), str(c.seats), _percent(c.percent))
            for c in summary.completion
        ),
    )


def _turns(summary: Summary) -> Figure:
    return Figure(
        key="turns",
        title=_("Median coach turns per element"),
        note=_("Over the students who used the coach on that element."),
        chart=bar_chart(
            [(_step(t.step), [t.median or 0.0], _number(t.median)) for t in summary.turn_medians]
        ),
        legend=(),
        headers=(_("element"), _("median turns"), _("students")),
        rows=tuple((_step(t.step), _number(t.median), str(t.works)) for t in summary.turn_medians),
    )


def _stuck(summary: Summary) -> Figure:
    return Figure(
        key="stuck",
        title=_("Where students get stuck"),
        note=_(
            "Mean coach turns spent on the element, most first, by the students who "
            "moved past it and those still on it (their turns so far)."
        ),
        chart=bar_chart(
            [
                (
                    _step(s.step),
                    [s.mean_turns or 0.0],
                    _number(s.mean_turns),
                )
                for s in summary.stuck
            ]
        ),
        legend=(),
        headers=(_("element"), _("turns on it (mean)"), _("moved on"), _("on it now")),
        rows=tuple(
            (_step(s.step), _number(s.mean_turns), str(s.advanced), str(s.here_now))
            for s in summary.stuck
        ),
    )


def _guards(summary: Summary) -> Figure:
    named = [(str(GUARD_LABELS.get(name, name)), count) for name, count in summary.guards]
    return Figure(
        key="guards",
        title=_("How often each guard intervened"),
        note=_("Times the server changed or refused the coach's reply, by guard."),
        chart=bar_chart([(label, [count], str(count)) for label, count in named]),
        legend=(),
        headers=(_("guard"), _("interventions")),
        rows=tuple((label, str(count)) for label, count in named),
    )


def _provenance(summary: Summary) -> Figure:
    bars, rows = [], []
    for step, counts in summary.provenance:
        total = sum(counts.values())
        shares = [100.0 * counts[k] / total if total else 0.0 for k in PROVENANCES]
        coach = counts["accepted"] + counts["edited"]
        bars.append((_step(step), shares, str(total)))
        rows.append(
            (
                _step(step),
                *(str(counts[k]) for k in PROVENANCES),
                _percent(100.0 * coach / total) if total else "—",
            )
        )
    return Figure(
        key="provenance",
        title=_("Who wrote each element"),
        note=_(
            "Of the written elements: the student's own (typed, or their words accepted) "
            "against the coach's proposals (accepted or edited). The number is how many are written."
        ),
        chart=bar_chart(bars, high=100),
        legend=tuple(
            (f"part-{n}", str(Provenance(kind).label)) for n, kind in enumerate(PROVENANCES)
        ),
        headers=(
            _("element"),
            *(str(Provenance(kind).label) for kind in PROVENANCES),
            _("from the coach"),
        ),
        rows=tuple(rows),
    )


def _verdicts(summary: Summary) -> Figure:
    named = [(str(TrialStatus(s).label), n) for s, n in summary.verdicts if s in TrialStatus.values]
    named.append((_("not tried"), summary.untried))
    return Figure(
        key="verdicts",
        title=_("Trial verdicts"),
        note=_("The latest trial of each argument, by outcome."),
        chart=bar_chart([(label, [n], str(n)) for label, n in named]),
        legend=(),
        headers=(_("outcome"), _("arguments")),
        rows=tuple((label, str(n)) for label, n in named),
    )


def figures(summary: Summary) -> list[Figure]:
    return [
        _completion(summary),
        _turns(summary),
        _stuck(summary),
        _guards(summary),
        _provenance(summary),
        _verdicts(summary),
    ]
