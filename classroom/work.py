"""A student's argument as the instructor reads it: diagram, transcript, guards, verdict."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from classroom.also_asked import latest_by_argument
from classroom.also_asked import stress_state as also_asked_state
from classroom.analytics_page import GUARD_LABELS
from classroom.models import Submission
from classroom.presenters import page_language
from coach.models import CoachTurn
from coach.steps import STEPS, label_for
from coach.toulmin_views import diagram_connector

__all__ = ["work_context"]


def work_context(submission: Submission) -> dict[str, Any]:
    """What admin/classroom/work.html shows; nothing in it can change the work."""
    argument = submission.argument
    # Step names are the page's words (the teacher's language), not the stored English
    # choice labels; the argument's own words keep its language.
    step_label = {step.id: label_for(step.id, page_language()) for step in STEPS}
    elements = {
        step.field: {
            # The teacher's words, like the connectors around them ("ya que", "a menos que").
            "label": step_label[step.id],
            "text": getattr(argument, step.field),
            "provenance": argument.provenance.get(step.field, ""),
            "connector": diagram_connector(
                step.field, getattr(argument, step.field), language=argument.language
            ),
        }
        for step in STEPS
    }
    turns = []
    for turn in CoachTurn.objects.filter(argument=argument).order_by("created_at", "id"):
        decisions = [
            {**d, "label": str(GUARD_LABELS.get(d.get("name", ""), d.get("name", "")))}
            for d in turn.guard_decisions or []
        ]
        changed = [d["label"] for d in decisions if d.get("changed")]
        turns.append(
            {
                "turn": turn,
                "step": step_label.get(turn.step, turn.step),
                "summary": _("guards changed the reply: %(names)s") % {"names": "; ".join(changed)}
                if changed
                else _("guards: no change"),
                "decisions": decisions,
            }
        )
    trials, stress = latest_by_argument([argument.pk])
    trial, stress_test = trials.get(argument.pk), stress.get(argument.pk)
    return {
        "stress_test": stress_test,
        "stress_state": also_asked_state(stress_test) if stress_test else "",
        "submission": submission,
        "argument": argument,
        "elements": elements,
        "current_step": step_label.get(argument.current_step, argument.current_step),
        "messages_list": [
            {"message": m, "step": step_label.get(m.step, m.step)} for m in argument.messages.all()
        ],
        "turns": turns,
        "trial": trial,
    }
