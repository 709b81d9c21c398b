"""A demo class for `make run`, so a new instructor's grid and analytics are not empty.

"Demo: Rhetoric 101" is taught by the given instructor; the demo student
account joins it (and can start the assignment itself), and four demo
classmates (inactive accounts: nobody signs in as them) have worked on the
assignment to different points: one finished with their own words, one
stuck on the warrant after many coach turns, one who leaned on the coach's
proposals, one who has only just begun; a fifth has not started. Their coach
turns carry guard records like the coach's own, so every chart of the
analytics has something to show. It is labelled "Demo" and made once:
running it again changes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from classroom.models import Assignment, Classroom, Membership
from classroom.services import start_submission
from coach.models import CoachMessage, CoachTurn
from coach.steps import STEP_IDS, field_for
from trials.models import Trial

__all__ = ["DEMO_CLASS_NAME", "load_demo_class"]

DEMO_CLASS_NAME = "Demo: Rhetoric 101"

TEXTS = {
    "claim": "City centres should be closed to private cars.",
    "grounds": "In Pontevedra, closing the centre to cars cut traffic injuries by 67% (2000-2019).",
    "warrant": "What makes streets markedly safer is worth the inconvenience to drivers.",
    "groundsBacking": "City of Pontevedra road-safety report, 2020.",
    "warrantBacking": "WHO (2018): road injuries are a leading cause of death for ages 5-29.",
    "qualifier": "In most mid-sized European cities",
    "rebuttal": "Unless there is no good public transport to replace the car trips.",
}

# username -> (current step, complete, {step: provenance}, {step: coach turns}, trial status)
CLASSMATES: dict[str, tuple[str, bool, dict[str, str], dict[str, int], str]] = {
    "demo-ana": (
        "rebuttal",
        True,
        {step: "student_words" if step in ("claim", "warrant") else "typed" for step in STEP_IDS},
        {
            "claim": 2,
            "grounds": 3,
            "warrant": 4,
            "groundsBacking": 1,
            "warrantBacking": 2,
            "qualifier": 1,
            "rebuttal": 2,
        },
        "sustained",
    ),
    "demo-ben": (
        "warrant",
        False,
        {"claim": "typed", "grounds": "edited"},
        {"claim": 3, "grounds": 4, "warrant": 8},
        "",
    ),
    "demo-carla": (
        "rebuttal",
        True,
        {step: "accepted" for step in STEP_IDS} | {"claim": "typed"},
        {
            "claim": 1,
            "grounds": 2,
            "warrant": 2,
            "groundsBacking": 1,
            "warrantBacking": 1,
            "qualifier": 1,
            "rebuttal": 1,
        },
        "overruled",
    ),
    "demo-dev": ("grounds", False, {"claim": "typed"}, {"claim": 1, "grounds": 2}, ""),
    "demo-eli": ("claim", False, {}, {}, ""),  # joined, not started
}


def _guard_record(step: str, n: int, turns_on_step: int) -> list[dict[str, Any]]:
    """What the guards decided on one demo turn, shaped as coach.guards records it."""
    first, last = n == 0, n == turns_on_step - 1
    return [
        {
            "name": "step_coercion",
            "changed": False,
            "reason": f"already on the current step ({step})",
        },
        {
            "name": "first_turn_bias",
            "changed": first and step != "claim",
            "reason": "first message, proposal removed: coaching first"
            if first and step != "claim"
            else "not the first message for this step",
        },
        {
            "name": "advance_gating",
            "changed": not last and n % 3 == 2,
            "reason": "removed the advance: the step is not ready yet"
            if not last and n % 3 == 2
            else "no advance asked",
        },
        {"name": "schema", "changed": False, "reason": "the result honours the contract"},
        {
            "name": "question_appending",
            "changed": True,
            "reason": "appended nextQuestion to assistantText",
        },
    ]


def _work(student: Any, assignment: Assignment, script: tuple) -> None:
    current, complete, provenance, turns, verdict = script
    argument = start_submission(assignment=assignment, student=student).argument
    reached = STEP_IDS.index(current)
    for step in STEP_IDS[: reached + 1]:
        if step in provenance:
            setattr(argument, field_for(step), TEXTS[step])
    argument.provenance = {field_for(step): value for step, value in provenance.items()}
    argument.current_step = current
    argument.completed_at = timezone.now() if complete else None
    argument.save()
    for step, count in turns.items():
        for n in range(count):
            asked = CoachMessage.objects.create(
                argument=argument, role="user", text=f"My {step}, try {n + 1}.", step=step
            )
            said = CoachMessage.objects.create(
                argument=argument,
                role="assistant",
                text="What would convince someone who disagrees?",
                step=step,
            )
            CoachTurn.objects.create(
                argument=argument,
                user_message=asked,
                assistant_message=said,
                step=step,
                guard_decisions=_guard_record(step, n, count),
                model="demo (scripted)",
            )
    if verdict:
        Trial.objects.create(
            owner=student,
            argument=argument,
            query=TEXTS["claim"],
            status=verdict,
            reason="Demo verdict (scripted).",
        )


@transaction.atomic
def load_demo_class(*, instructor: Any, student: Any | None = None) -> Classroom:
    existing = Classroom.objects.filter(name=DEMO_CLASS_NAME).first()
    if existing is not None:
        return existing
    classroom = Classroom.objects.create(name=DEMO_CLASS_NAME)
    classroom.instructors.add(instructor)
    assignment = Assignment.objects.create(
        classroom=classroom,
        title="Car-free city centres",
        prompt="Should city centres be closed to private cars? Argue your position.",
        due_at=timezone.now() + timedelta(days=7),
        coach_policy="coach",
        asks_trial=True,
        required_criteria={"grounds": ["grounds_has_number_or_citation"]},
        created_by=instructor,
    )
    users = get_user_model().objects
    for username, script in CLASSMATES.items():
        classmate, created = users.get_or_create(username=username, defaults={"is_active": False})
        if created:
            classmate.set_unusable_password()
            classmate.save(update_fields=["password"])
        Membership.objects.create(classroom=classroom, student=classmate)
        if script[3] or script[2]:
            _work(classmate, assignment, script)
    if student is not None:
        Membership.objects.create(classroom=classroom, student=student)
    return classroom
