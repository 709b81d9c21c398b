"""A student's argument as the instructor reads it: diagram, transcript, guards, verdict."""

from __future__ import annotations

from typing import Any

from classroom.also_asked import latest_by_argument
from classroom.also_asked import stress_state as also_asked_state
from classroom.models import Submission
from coach.admin import guard_summary
from coach.models import CoachTurn
from coach.steps import STEPS

__all__ = ["work_context"]


def work_context(submission: Submission) -> dict[str, Any]:
    """What admin/classroom/work.html shows; nothing in it can change the work."""
    argument = submission.argument
    elements = {
        step.field: {
            "label": argument.step_label(step.id),
            "text": getattr(argument, step.field),
            "provenance": argument.provenance.get(step.field, ""),
        }
        for step in STEPS
    }
    turns = []
    for turn in CoachTurn.objects.filter(argument=argument).order_by("created_at", "id"):
        turns.append(
            {
                "turn": turn,
                "summary": guard_summary(turn),
                "changed": [d for d in turn.guard_decisions or [] if d.get("changed")],
                "decisions": turn.guard_decisions or [],
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
        "messages_list": argument.messages.all(),
        "turns": turns,
        "trial": trial,
    }
