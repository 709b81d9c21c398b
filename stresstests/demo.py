"""The demo stress test: scripted words, real semantics, on the demo student's argument.

Without an API key nobody can run a stress test, so `make run` loads one: the
demo student's finished argument, attacked by the first active personas.
Each stage of the format runs for real (its rows, events, ``StageRun`` and the
semantics) with scripted replies in place of the model's, so the page and the
replay show exactly what a run shows. Idempotent: a second call finds it.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from coach.models import Argument
from debates.schemas import AttackValidations, PersonaAttacks
from engine import events
from engine.models import Debate, DebateStatus, Persona
from stresstests.mapping import elements_of
from stresstests.models import Defence, StressTest
from stresstests.schemas import ConcessionVerdicts, DefenceVerdict, PersonaReply
from stresstests.scripted import all_valid, finish_run, walk
from stresstests.state import StressState
from stresstests.stress_format import STRESS

__all__ = ["DEMO_STUDENT", "REFEREE_SENTENCES", "demo_argument", "load_demo_stress_test"]

DEMO_STUDENT = "student"
DEMO_TITLE = "Demo: protected bike lanes"

ELEMENTS = {
    "claim": "Our city should build protected bike lanes on its main streets.",
    "grounds": "Cities that built protected lanes report fewer traffic deaths per trip.",
    "warrant": "A change that lowers deaths per trip makes the streets safer.",
    "grounds_backing": "Road-safety studies across several European and American cities.",
    "warrant_backing": "",
    "qualifier": "On most main streets",
    "rebuttal": "Unless a street is too narrow to fit a lane without closing it to buses.",
}

# (type, component, index, counter-proposition, rationale), one per persona in order.
ATTACKS = (
    (
        "undermine",
        "premise",
        0,
        "The cities that built lanes differ from ours in many other ways.",
        "Fewer deaths there may come from speed limits or transit, not from the lanes.",
    ),
    (
        "undercut",
        "assumption",
        0,
        "Fewer deaths per trip does not mean safer streets overall.",
        "If cycling grows, total injuries can rise even as each trip gets safer.",
    ),
    (
        "rebut",
        "claim",
        0,
        "Some main streets are too narrow for a protected lane.",
        "Fitting a lane there would close the street to buses.",
    ),
)

# The scripted referee speaks as the site: its sentences are stored in English and
# shown in the reader's language (stresstests.presenters.site_sentence).
REFEREE_SENTENCES = (
    gettext_noop("Your answer repeats your warrant instead of answering."),
    gettext_noop("It answers the objection with a fact about total injuries."),
    gettext_noop("It removes the other differences between cities."),
)

# (which attack, answer, accepted?, the referee's sentence)
DEFENCES = (
    (1, ELEMENTS["warrant"], False, REFEREE_SENTENCES[0]),
    (
        1,
        "Total injuries also fell in those cities, so the streets became safer overall.",
        True,
        REFEREE_SENTENCES[1],
    ),
    (
        0,
        "The studies compared streets within the same city before and after the lanes.",
        True,
        REFEREE_SENTENCES[2],
    ),
)


def _demo_student():
    user, created = get_user_model().objects.get_or_create(username=DEMO_STUDENT)
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def _personas() -> list[Persona]:
    personas = list(Persona.objects.filter(active=True).order_by("id")[: len(ATTACKS)])
    for i in range(len(personas), len(ATTACKS)):
        persona, _ = Persona.objects.get_or_create(
            name=f"Demo critic {i + 1}", defaults={"worldview": "A careful, fair critic."}
        )
        personas.append(persona)
    return personas


def _reply(spec, state: StressState, *, personas: list[Persona], defences: dict):
    title = spec.output_model.__name__
    if spec.output_model is PersonaAttacks:
        index = [p.id for p in personas].index(spec.persona_id)
        type_, component, target_index, counter, rationale = ATTACKS[index]
        return PersonaAttacks(
            attacks=[
                {
                    "target_id": "A1",
                    "type": type_,
                    "target_component": component,
                    "target_index": target_index,
                    "counter_proposition": counter,
                    "rationale": rationale,
                    "assumptions": [],
                    "evidence": [],
                    "confidence": 0.8,
                }
            ]
        )
    if spec.output_model is AttackValidations:
        return all_valid(state, 1, strength=0.7)
    if spec.output_model is ConcessionVerdicts:
        rebut_key = next(a.from_key for a in state.debate.attacks if a.type == "rebut")
        return ConcessionVerdicts(
            verdicts=[
                {"attack_id": a.from_key, "matches_conceded_exception": a.from_key == rebut_key}
                for a in state.debate.attacks
                if a.from_key
            ]
        )
    if spec.output_model is PersonaReply:
        return PersonaReply(concede=True, counter_proposition="", rationale="")
    if spec.output_model is DefenceVerdict:
        accepted, reason = defences[spec.round]
        return DefenceVerdict(
            relevant=True, restatement=not accepted, denies_the_objection=True, reason=reason
        )
    raise ValueError(f"no scripted reply for {title}")


def demo_argument() -> Argument:
    """The demo student's finished argument (the demo stress test's and the demo trial's)."""
    student = _demo_student()
    argument = Argument.objects.filter(owner=student, title=DEMO_TITLE).first()
    if argument is None:
        argument = Argument.objects.create(
            owner=student, title=DEMO_TITLE, completed_at=timezone.now(), **ELEMENTS
        )
    return argument


def load_demo_stress_test() -> tuple[StressTest, bool]:
    """The demo stress test, made if absent; (it, whether it was made now)."""
    existing = StressTest.objects.filter(debate__is_demo=True).first()
    if existing is not None:
        return existing, False
    argument = demo_argument()
    student = argument.owner
    personas = _personas()
    with transaction.atomic():
        debate = Debate.objects.create(
            format="stress",
            topic=ELEMENTS["claim"],
            max_rounds=1,
            budget_usd=Decimal(0),
            creator=student,
            is_demo=True,
            status=DebateStatus.RUNNING,
            started_at=timezone.now(),
        )
        debate.personas.set(personas)
        stress = StressTest.objects.create(
            debate=debate, argument=argument, student=student, elements=elements_of(argument)
        )
        events.record_event(
            debate=debate, type=events.DEBATE_START, payload=STRESS.start_payload(debate)
        )
    state = walk(debate, partial(_reply, personas=personas, defences={}))
    objection_keys = [a.from_key for a in state.debate.attacks if a.from_key]
    verdicts = {}
    for seq, (attack_index, text, accepted, reason) in enumerate(DEFENCES, start=1):
        attack = next(a for a in state.debate.attacks if a.from_key == objection_keys[attack_index])
        Defence.objects.create(stress_test=stress, seq=seq, attack_id=attack.id, text=text)
        verdicts[seq] = (accepted, reason)
        state = walk(debate, partial(_reply, personas=personas, defences=verdicts))
    finish_run(debate, state, detail="Demo finished.")
    stress.debate.refresh_from_db()
    return stress, True
