"""The offline stress test: what can be computed without a model, on this site, at no cost.

Without the AI service a student who finished an argument can still have it
tested. The objections are the critical questions of the scheme the warrant
uses (`argumentation.schemes`: expert opinion, cause to effect, analogy,
example, consequences, or a general rule), asked by one inactive persona,
"Critical questions"; each is typed by the element it challenges, so the type
rule, the semantics and the claim's status are the stress test's own
(`stresstests.scripted` walks the format's route in-process). What a model
would judge is decided by rules instead, and the page says so:

- every critical question is a valid objection (it is well-formed by construction);
- the question asking for exceptions counts as conceded when the student wrote a
  rebuttal (that step is where exceptions are listed);
- an answer is accepted when it is the student's own reasoning: at least
  ``MIN_ANSWER_WORDS`` words, and not a near copy of the element it defends nor of
  the objection (``RESTATEMENT_SIMILARITY``, rapidfuzz's token-set ratio). Rules
  cannot tell whether it is *convincing*: that is for the student, the class and
  the instructor;
- the critical questions never answer back.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import partial

from django.db import transaction
from django.utils import timezone
from rapidfuzz import fuzz

from argumentation.schemes import identify_scheme, objections
from debates.schemas import AttackValidations, PersonaAttacks
from engine import events
from engine.models import Debate, DebateStatus, Persona
from limits.services import admit
from stresstests.mapping import as_argument, elements_of
from stresstests.models import StressTest
from stresstests.schemas import ConcessionVerdicts, DefenceVerdict, PersonaReply
from stresstests.scripted import all_valid, finish_run, walk
from stresstests.stages import DefenceStage
from stresstests.state import StressState
from stresstests.stress_format import STRESS

__all__ = [
    "CRITICAL_QUESTIONS_PERSONA",
    "MIN_ANSWER_WORDS",
    "RESTATEMENT_SIMILARITY",
    "judge_answer",
    "resume_offline",
    "scheme_for",
    "start_offline_stress_test",
]

CRITICAL_QUESTIONS_PERSONA = "Critical questions"
MIN_ANSWER_WORDS = 6
RESTATEMENT_SIMILARITY = 90
FINISHED = "Offline stress test: no stage left."

_WORD = re.compile(r"\w+")

# The rules' sentences, in the argument's language (the student reads them beside their answer).
_SENTENCES = {
    "short": {
        "en": "Too short to answer the question: say in a sentence or two why it does not "
        "defeat your argument.",
        "es": "Demasiado breve para responder a la pregunta: explica en una o dos frases por "
        "qué no derriba tu argumento.",
    },
    "restatement": {
        "en": "It repeats what the question challenges instead of answering it.",
        "es": "Repite lo que la pregunta pone en duda en lugar de responderla.",
    },
    "accepted": {
        "en": "Accepted by the offline check: it is your own answer, not a repetition. Whether "
        "it convinces is for you and your instructor to weigh.",
        "es": "Aceptada por la comprobación sin IA: es tu propia respuesta, no una repetición. "
        "Si convence o no, lo valoráis tú y tu docente.",
    },
}


def critical_questions_persona() -> Persona:
    # Inactive: never offered in a persona list; it speaks only in offline stress tests.
    persona, _ = Persona.objects.get_or_create(
        name=CRITICAL_QUESTIONS_PERSONA,
        defaults={
            "worldview": "Asks the standard critical questions of the argument's scheme.",
            "active": False,
        },
    )
    return persona


def scheme_for(argument) -> str:
    """The name of the scheme the warrant reads as, in the argument's language (its pages)."""
    language = "es" if argument.language == "es" else "en"
    return identify_scheme(elements_of(argument), language=language).name[language]


def judge_answer(answer: str, *, element_text: str, objection_text: str) -> str | None:
    """None when the answer is accepted, else why not: "short" or "restatement"."""
    if len(_WORD.findall(answer)) < MIN_ANSWER_WORDS:
        return "short"
    for text in (element_text, objection_text):
        if text and fuzz.token_set_ratio(answer.lower(), text.lower()) >= RESTATEMENT_SIMILARITY:
            return "restatement"
    return None


def _target(elements: dict[str, str], element: str) -> tuple[str, int]:
    if element == "claim":
        return "claim", 0
    if element == "warrant":
        return "assumption", 0
    return "premise", as_argument(elements).premise_elements.index(element)


def _replier(language: str):
    """The replies of one offline run, in the argument's language."""
    language = "es" if language == "es" else "en"
    return partial(_reply, language=language)


def _reply(spec, state: StressState, *, language: str):
    model = spec.output_model
    if model is PersonaAttacks:
        attacks = []
        for objection in objections(state.element_map, language=language):
            component, index = _target(state.element_map, objection.element)
            attacks.append(
                {
                    "target_id": "A1",
                    "type": objection.attack_type,
                    "target_component": component,
                    "target_index": index,
                    "counter_proposition": objection.counter_proposition,
                    "rationale": objection.rationale,
                    "assumptions": [],
                    "evidence": [],
                    "confidence": 0.5,
                }
            )
        return PersonaAttacks(attacks=attacks)
    if model is AttackValidations:
        return all_valid(state, spec.round, strength=0.5)
    if model is ConcessionVerdicts:
        found = objections(state.element_map, language=language)
        exceptions = {o.counter_proposition for o in found if o.exception}
        conceded = bool((state.element_map.get("rebuttal") or "").strip())
        return ConcessionVerdicts(
            verdicts=[
                {
                    "attack_id": a.from_key,
                    "matches_conceded_exception": conceded and a.counter_proposition in exceptions,
                }
                for a in state.debate.attacks
                if a.from_key
            ]
        )
    if model is DefenceVerdict:
        defence, attack, _element, element_text = DefenceStage._target(state, spec.round)
        problem = judge_answer(
            defence.text, element_text=element_text, objection_text=attack.counter_proposition
        )
        return DefenceVerdict(
            relevant=problem != "short",
            restatement=problem == "restatement",
            denies_the_objection=True,
            reason=_SENTENCES[problem or "accepted"][language],
        )
    if model is PersonaReply:
        return PersonaReply(concede=True, counter_proposition="", rationale="")
    raise ValueError(f"the offline stress test has no reply for {model.__name__}")


def start_offline_stress_test(*, argument, user) -> StressTest:
    """Run an offline stress test of ``argument`` now, in this request (no model, no cost)."""
    with transaction.atomic():
        # The rate applies (it writes rows); nothing is reserved: it costs nothing.
        admit(user=user, action="stress_test", reserve_usd=None)
        debate = Debate.objects.create(
            format="stress",
            topic=(argument.claim or "")[:2000],
            max_rounds=1,
            budget_usd=Decimal(0),
            creator=user,
            status=DebateStatus.RUNNING,
            started_at=timezone.now(),
        )
        debate.personas.set([critical_questions_persona()])
        stress = StressTest.objects.create(
            debate=debate,
            argument=argument,
            student=user,
            elements=elements_of(argument),
            offline=True,
        )
        events.record_event(
            debate=debate, type=events.DEBATE_START, payload=STRESS.start_payload(debate)
        )
        state = walk(debate, _replier(argument.language))
        finish_run(debate, state, detail=FINISHED)
    return stress


def resume_offline(stress: StressTest) -> None:
    """Judge an answer just saved (the route's next stages), then end the run again."""
    debate = stress.debate
    Debate.objects.filter(pk=debate.pk).update(status=DebateStatus.RUNNING)
    debate.refresh_from_db()
    state = walk(debate, _replier(stress.argument.language))
    finish_run(debate, state, detail=FINISHED)
