"""A demo class for `make run`, so a new instructor's grid and analytics are not empty.

"Demo: Rhetoric 101" is taught by the given instructor; the demo student
account joins it (and can start the assignment itself), and four demo
classmates (inactive accounts: nobody signs in as them) have worked on the
assignment to different points: one finished with their own words, one
stuck on the warrant after many coach turns, one who leaned on the coach's
proposals, one who has only just begun; a fifth has not started. Each has their
own argument and transcript, of different quality (TEXTS, TRANSCRIPTS), so the
grid, the work view and the analytics tell them apart; their coach turns carry
guard records like the coach's own. The assignment asks for a stress test (it
runs without the AI service too): the two who finished ran the offline one for
real, and Ana answered two of its critical questions. It is labelled "Demo" and made once:
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

__all__ = ["DEMO_CLASS_NAME", "load_demo_class"]

DEMO_CLASS_NAME = "Demo: Rhetoric 101"

# Each classmate's own argument, in their own words, of different quality: Ana's is
# specific and sourced, Ben's warrant never comes, Carla's is the coach's generic prose,
# Dev has a vague claim. A step left out has not been written yet.
TEXTS: dict[str, dict[str, str]] = {
    "demo-ana": {
        "claim": "City centres should be closed to private cars on weekdays.",
        "grounds": "In Pontevedra, closing the centre to cars cut traffic injuries by 67% "
        "between 2000 and 2019, while the number of people living there grew.",
        "warrant": "A change that makes streets markedly safer without emptying them is "
        "worth the inconvenience to drivers.",
        "groundsBacking": "City of Pontevedra, road-safety report (2020).",
        "warrantBacking": "WHO, Global status report on road safety (2018): road injuries "
        "are the leading cause of death for people aged 5-29.",
        "qualifier": "In most mid-sized European cities",
        "rebuttal": "Unless the city has no frequent public transport to replace the car "
        "trips, or deliveries have no other way in.",
    },
    "demo-ben": {
        "claim": "Cars should be banned from city centres.",
        "grounds": "Madrid's low-emission centre (2019) was followed by lower "
        "nitrogen dioxide on its main streets.",
    },
    "demo-carla": {
        "claim": "Private cars should not be allowed in city centres.",
        "grounds": "Studies show that car-free centres have fewer accidents and cleaner air "
        "(European Environment Agency, 2019).",
        "warrant": "Policies that improve public health and safety should be adopted.",
        "groundsBacking": "European Environment Agency reports.",
        "warrantBacking": "Public health research.",
        "qualifier": "Generally",
        "rebuttal": "Unless there are exceptions.",
    },
    "demo-dev": {"claim": "Cars are bad for cities."},
}

# Each classmate's coach turns, step by step: (what the student wrote, what the coach said).
TRANSCRIPTS: dict[str, dict[str, list[tuple[str, str]]]] = {
    "demo-ana": {
        "claim": [
            (
                "I think cars should be kept out of city centres on weekdays.",
                "That is a clear position. Is it all cars, or private cars? Say exactly "
                "what you want closed and when.",
            ),
        ],
        "grounds": [
            (
                "Pontevedra closed its centre and it became safer.",
                "Safer how, and by how much? A figure and where it comes from would make "
                "this hard to dismiss.",
            ),
            (
                "Traffic injuries fell 67% between 2000 and 2019, and more people live there now.",
                "Good: a number, a period, and a sign the centre did not empty. That is "
                "strong grounds.",
            ),
        ],
        "warrant": [
            (
                "Because it worked there.",
                "Working there is your grounds. What general rule connects a safer "
                "Pontevedra to what every city should do?",
            ),
            (
                "Safety matters more than driving.",
                "Closer. Would a reader who drives to work accept that as it stands? What "
                "would make the trade fair?",
            ),
            (
                "A change that makes streets much safer without emptying them is worth the "
                "inconvenience to drivers.",
                "That names the trade and its limit. Shall I put it as your warrant?",
            ),
        ],
        "groundsBacking": [
            (
                "The city's own road-safety report, 2020.",
                "A named source with a year. Accept it as the backing of your grounds?",
            ),
        ],
        "warrantBacking": [
            (
                "The WHO says road injuries are the top killer of young people.",
                "Which report, and which ages? Precise backing is harder to wave away.",
            ),
        ],
        "qualifier": [
            (
                "Most mid-sized European cities.",
                "A fair limit: Pontevedra is one such city. Keep it?",
            ),
        ],
        "rebuttal": [
            (
                "It would not work without good buses, and shops need deliveries.",
                "Two real exceptions. Write them as the cases where your claim would not hold.",
            ),
        ],
    },
    "demo-ben": {
        "claim": [
            (
                "cars are bad",
                "Bad in what way, and what should a city do about it? A claim says what "
                "should happen.",
            ),
            (
                "Cars should be banned from city centres.",
                "Now it is a claim someone can disagree with. On to your evidence.",
            ),
        ],
        "grounds": [
            (
                "Everyone knows cars pollute.",
                "Everyone may know it, but your reader wants evidence. Which city, which figure?",
            ),
            (
                "Madrid did it.",
                "What did Madrid do, when, and what changed afterwards?",
            ),
            (
                "Madrid Central in 2019, pollution went down after.",
                "I can write that as: Madrid's low-emission centre (2019) was followed by "
                "lower nitrogen dioxide on its main streets. Accept, edit or reject it.",
            ),
        ],
        "warrant": [
            (
                "Cars should be banned.",
                "That is your claim again. The warrant says why Madrid's result supports "
                "it. What links the two?",
            ),
            (
                "Because pollution is bad.",
                "That is true, but it does not say why a ban is the answer. What rule "
                "takes us from 'it fell in Madrid' to 'every centre should ban cars'?",
            ),
            (
                "I don't know, because it worked?",
                "Worked for what? If less pollution is the goal, say that whatever cuts "
                "it is worth doing, and then ask whether that is always true.",
            ),
            (
                "Pollution is bad so we ban cars.",
                "You are close to the claim again. Try a sentence that starts 'Whatever "
                "...' or 'A city should ... when ...'.",
            ),
            (
                "ok",
                "Take your time. Here is an example on another topic: 'A rule that cuts "
                "injuries in one school is worth trying in others like it.'",
            ),
            (
                "cars pollute",
                "That is grounds, not a warrant. What makes Madrid's result a reason for "
                "other cities?",
            ),
        ],
    },
    "demo-carla": {
        "claim": [
            (
                "Private cars should not be allowed in city centres.",
                "Clear. What is your evidence?",
            ),
        ],
        "grounds": [
            (
                "pollution and accidents",
                "I can propose: Studies show that car-free centres have fewer accidents "
                "and cleaner air (European Environment Agency, 2019). Accept it?",
            ),
        ],
        "warrant": [
            (
                "yes",
                "I can propose: Policies that improve public health and safety should be "
                "adopted. Accept it?",
            ),
        ],
        "groundsBacking": [("yes", "Proposed: European Environment Agency reports.")],
        "warrantBacking": [("yes", "Proposed: Public health research.")],
        "qualifier": [("ok", "Proposed: Generally.")],
        "rebuttal": [("yes", "Proposed: Unless there are exceptions.")],
    },
    "demo-dev": {
        "claim": [
            (
                "Cars are bad for cities.",
                "A start. Bad for whom, and what should a city do about it?",
            ),
        ],
        "grounds": [
            ("idk", "What made you think cars are bad? Something you saw or read?"),
            (
                "traffic jams",
                "Jams are a start. Where, and how bad? A number would help.",
            ),
        ],
    },
}

# username -> (current step, complete, {step: provenance})
CLASSMATES: dict[str, tuple[str, bool, dict[str, str]]] = {
    "demo-ana": (
        "rebuttal",
        True,
        {step: "student_words" if step in ("claim", "warrant") else "typed" for step in STEP_IDS},
    ),
    "demo-ben": ("warrant", False, {"claim": "typed", "grounds": "edited"}),
    "demo-carla": ("rebuttal", True, {step: "accepted" for step in STEP_IDS} | {"claim": "typed"}),
    "demo-dev": ("grounds", False, {"claim": "typed"}),
    "demo-eli": ("claim", False, {}),  # joined, not started
}

# What each finished classmate answered when the critical questions of their warrant
# were asked (the offline stress test, run for real): {question's element: answer}.
STRESS_ANSWERS: dict[str, dict[str, str]] = {
    "demo-ana": {
        # "Is the good result likely here?": why Pontevedra's case carries to other cities.
        "grounds": "Pontevedra is a mid-sized city of about 80,000 people, like the cities "
        "my qualifier names, and Ghent saw the same when it closed its centre to through "
        "traffic in 2017: fewer cars and more cycling.",
        # "Is it worth what it costs, and to whom?": who pays, and what they get for it.
        "warrant": "The cost falls on drivers, who lose a few minutes and some parking, "
        "while residents, buses and deliveries keep their access. Most of the injuries it "
        "prevents are to people walking or cycling, so a small price buys lives.",
    },
    "demo-carla": {},
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
    current, complete, provenance = script
    texts = TEXTS.get(student.username, {})
    argument = start_submission(assignment=assignment, student=student).argument
    for step, text in texts.items():
        setattr(argument, field_for(step), text)
    argument.provenance = {field_for(step): value for step, value in provenance.items()}
    argument.current_step = current
    argument.completed_at = timezone.now() if complete else None
    argument.save()
    for step, exchanges in TRANSCRIPTS.get(student.username, {}).items():
        for n, (asked_text, said_text) in enumerate(exchanges):
            asked = CoachMessage.objects.create(
                argument=argument, role="user", text=asked_text, step=step
            )
            said = CoachMessage.objects.create(
                argument=argument, role="assistant", text=said_text, step=step
            )
            CoachTurn.objects.create(
                argument=argument,
                user_message=asked,
                assistant_message=said,
                step=step,
                guard_decisions=_guard_record(step, n, len(exchanges)),
                model="demo (scripted)",
            )
    if complete:
        _stress_test(student, argument)


def _stress_test(student: Any, argument: Any) -> None:
    """The assignment asks for a stress test: run the offline one for real, and answer
    the critical questions the classmate answered."""
    from stresstests.offline import start_offline_stress_test
    from stresstests.services import defend

    stress = start_offline_stress_test(argument=argument, user=student)
    answers = STRESS_ANSWERS.get(student.username, {})
    for attack in stress.debate.attacks.filter(round=1).select_related("from_argument"):
        element = {"premise": "grounds", "assumption": "warrant", "claim": "claim"}.get(
            attack.target_component, ""
        )
        if element in answers:
            defend(stress=stress, attack_key=attack.from_argument.key, text=answers[element])


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
        # A stress test, not a trial: it runs on a site without the AI service too
        # (the critical questions), so the demo asks nothing the site cannot do.
        asks_stress_test=True,
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
        if username in TEXTS:
            _work(classmate, assignment, script)
    if student is not None:
        Membership.objects.create(classroom=classroom, student=student)
    return classroom
