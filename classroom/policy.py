"""The coach policy of an argument written for an assignment (registered in apps.ready)."""

from __future__ import annotations

from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.criteria import criterion, failed_criteria, parse_required
from classroom.models import CoachPolicy, Submission
from coach.models import CoachTurn
from coach.policy import Policy

__all__ = ["turn_policy"]


def turn_policy(argument: Any) -> Policy | None:
    """None for an argument written outside any assignment."""
    submission = (
        Submission.objects.select_related("assignment").filter(argument_id=argument.pk).first()
    )
    if submission is None:
        return None
    assignment = submission.assignment
    locked = ""
    due = assignment.due_for(submission.student)
    if due is not None and timezone.now() > due:
        locked = _(
            "This assignment was due on %(due)s, so your argument is read-only now. "
            "Ask your instructor for an extension if you need more time."
        ) % {"due": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT")}
    quota_refusal = ""
    if assignment.turn_quota is not None:
        used = CoachTurn.objects.filter(argument_id=argument.pk, error_code="").count()
        if used >= assignment.turn_quota:
            quota_refusal = ngettext(
                "You have used the %(quota)d coach turn this assignment allows. "
                "You can still type your fields yourself.",
                "You have used all %(quota)d coach turns this assignment allows. "
                "You can still type your fields yourself.",
                assignment.turn_quota,
            ) % {"quota": assignment.turn_quota}
    required = parse_required(assignment.required_criteria)
    language = argument.language

    def check(step: str, text: str) -> list[str]:
        return [c.label(language) for c in failed_criteria(required, step=step, text=text)]

    policy = assignment.coach_policy
    summary = {
        CoachPolicy.COACH: "",
        CoachPolicy.HINTS_ONLY: _(
            "For this assignment the coach gives hints and asks questions, "
            "but never writes text for you."
        ),
        CoachPolicy.OFF: _("For this assignment the coach is off: type each part yourself."),
    }.get(policy, "")
    return Policy(
        proposals=policy == CoachPolicy.COACH,
        coach=policy != CoachPolicy.OFF,
        locked=locked,
        quota_refusal=quota_refusal,
        criteria_check=check if required else None,
        summary=summary,
        requirements={
            step: [criterion(code).label(language) for code in codes]
            for step, codes in required.items()
        },
    )
