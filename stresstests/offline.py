"""The offline stress test: what can be computed without a model, on this site, at no cost.

Without the AI service a student who finished an argument can still have it
tested. The objections are the critical questions of the scheme the warrant
uses (`argumentation.schemes`: expert opinion, cause to effect, analogy,
example, consequences, sign, practical reasoning, popular opinion,
classification, or a general rule), asked by one inactive persona,
"Critical questions"; each is typed by the element it challenges, so the type
rule, the semantics and the claim's status are the stress test's own
(`stresstests.scripted` walks the format's route in-process). What a model
would judge is decided by rules instead, and the page says so:

- every critical question is a valid objection (it is well-formed by construction);
- the question asking for exceptions counts as conceded when the student wrote a
  rebuttal (that step is where exceptions are listed);
- an answer is accepted when it answers its question (`argumentation.cq_answers`):
  long enough, more than an opinion ("I disagree"), not a copy of the student's
  argument, the question or the objection, not a concession, not the same words
  as an answer already accepted for another question, and speaking to what the
  question asks (credentials for "is the source an expert?", other sources for
  "do other experts agree?"). Rules cannot tell whether it is *convincing*: that
  is for the student, the class and the instructor;
- the critical questions never answer back.
"""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import get_language

from argumentation import cq_answers
from argumentation.schemes import identify_scheme, objections, question_for
from debates.schemas import AttackValidations, PersonaAttacks
from engine import events
from engine.models import Debate, DebateStatus, Persona
from limits.services import admit
from stresstests.mapping import as_argument, elements_of
from stresstests.models import DefenceRefusal, DefenceStatus, StressTest
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
MIN_ANSWER_WORDS = cq_answers.MIN_WORDS
RESTATEMENT_SIMILARITY = cq_answers.COPY_SIMILARITY
FINISHED = "Offline stress test: no stage left."

# The rules' verdicts as the stress test's refusal reasons.
_REASON = {
    "short": DefenceRefusal.IRRELEVANT,
    "non_answer": DefenceRefusal.IRRELEVANT,
    "off_question": DefenceRefusal.IRRELEVANT,
    "reused": DefenceRefusal.IRRELEVANT,
    "restatement": DefenceRefusal.RESTATEMENT,
    "concedes": DefenceRefusal.WRONG_TYPE,
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


def reader_language() -> str:
    """The page's language ("en" or "es"): the critical questions are the site's voice."""
    return "es" if (get_language() or "").startswith("es") else "en"


def scheme_for(argument) -> str:
    """The name of the scheme the warrant reads as, in the reader's language."""
    return identify_scheme(elements_of(argument)).name[reader_language()]


def judge_answer(
    answer: str,
    *,
    element_text: str,
    objection_text: str,
    elements: dict[str, str] | None = None,
    accepted_elsewhere: tuple[str, ...] = (),
    language: str = "en",
) -> str | None:
    """None when the answer is accepted, else the rules' code (`cq_answers.judge`).

    The question is recognised from its objection's words, in either language; an
    objection the rules do not know (an older wording) is checked without the
    question's markers."""
    found = question_for(objection_text)
    question = found[1] if found else None
    elements = elements or {}
    return cq_answers.judge(
        answer,
        asks=question.asks if question else "",
        element_text=element_text,
        question_texts=(
            objection_text,
            *(question.question.values() if question else ()),
        ),
        argument_texts=tuple(
            elements.get(name, "") for name in ("claim", "grounds", "warrant") if elements
        ),
        accepted_elsewhere=accepted_elsewhere,
        language=language,
    )


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
        elsewhere = tuple(
            d.text
            for d in state.defences
            if d.status == DefenceStatus.ACCEPTED and d.attack_key != defence.attack_key
        )
        problem = judge_answer(
            defence.text,
            element_text=element_text,
            objection_text=attack.counter_proposition,
            elements=state.element_map,
            accepted_elsewhere=elsewhere,
            language=language,
        )
        reason = _REASON.get(problem or "")
        found = question_for(attack.counter_proposition)
        asks = found[1].asks if found else ""
        return DefenceVerdict(
            relevant=reason != DefenceRefusal.IRRELEVANT,
            restatement=reason == DefenceRefusal.RESTATEMENT,
            denies_the_objection=reason != DefenceRefusal.WRONG_TYPE,
            reason=cq_answers.sentence(problem or "accepted", language, asks=asks),
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
