"""Writes of the stress test: start one, answer an attack. Views only orchestrate."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from debates.services import estimate_cost
from engine.admission import admit_run
from engine.models import Debate, DebateStatus, Persona
from engine.services import debates_available, launch
from engine.stopping import is_budget_stop
from limits.services import LimitReached
from stresstests.mapping import elements_of
from stresstests.models import Defence, DefenceStatus, StressTest
from stresstests.outcome import answerable
from stresstests.state import load_state
from untrusted import clean_text, text_problem

__all__ = [
    "MAX_ANSWER_CHARS",
    "MAX_PERSONAS",
    "MIN_PERSONAS",
    "StressError",
    "default_personas",
    "defend",
    "estimate",
    "start_offline",
    "start_stress_test",
]

MIN_PERSONAS = 2
MAX_PERSONAS = 4
DEFAULT_PERSONAS = 3
MAX_ANSWER_CHARS = 2000
# A stress test reserves this multiple of its estimate: room for the answers' checks.
BUDGET_FACTOR = Decimal("2")
MIN_BUDGET = Decimal("0.10")


class StressError(ValueError):
    """A request refused; the message is a translated sentence for the student."""


def offered_personas() -> list[Persona]:
    return list(Persona.objects.filter(active=True).order_by("id"))


def default_personas() -> list[Persona]:
    return offered_personas()[:DEFAULT_PERSONAS]


def estimate(personas: Sequence[Persona]) -> Decimal:
    """What one run costs at most, shown before it starts (the attacks and their checks)."""
    return max(estimate_cost(personas=personas, rounds=1) * BUDGET_FACTOR, MIN_BUDGET)


def start_stress_test(*, argument, user, persona_ids: Sequence[int]) -> StressTest:
    """Save a queued stress test of ``argument`` and run it once the transaction commits."""
    if argument.owner_id != user.pk or not argument.is_complete:
        raise StressError(_("Only a finished argument of yours can be stress-tested."))
    if not debates_available():
        raise StressError(
            _("A new stress test needs an AI key on this site. The demo shows how one works.")
        )
    personas = list(Persona.objects.filter(pk__in=set(persona_ids), active=True).order_by("id"))
    if not MIN_PERSONAS <= len(personas) <= MAX_PERSONAS:
        raise StressError(_("Choose 2 to 4 personas to attack your argument."))
    elements = elements_of(argument)
    budget = estimate(personas)
    with transaction.atomic():
        admit_run(user=user, action="stress_test", reserve_usd=budget)
        debate = Debate.objects.create(
            format="stress",
            topic=elements["claim"][:2000],
            max_rounds=1,
            budget_usd=budget,
            creator=user,
        )
        debate.personas.set(personas)
        stress = StressTest.objects.create(
            debate=debate, argument=argument, student=user, elements=elements
        )
        launch(debate.pk)
    return stress


def start_offline(*, argument, user) -> StressTest:
    """An offline stress test of ``argument`` (stresstests/offline.py), run now."""
    from stresstests.offline import start_offline_stress_test

    if argument.owner_id != user.pk or not argument.is_complete:
        raise StressError(_("Only a finished argument of yours can be stress-tested."))
    return start_offline_stress_test(argument=argument, user=user)


def _refusal_while(debate: Debate) -> str:
    """Why an answer cannot be taken now, and what to do instead."""
    if is_budget_stop(reason=debate.stop_reason, code=debate.stop_code):
        return _(
            "This stress test reached its spending limit, so it cannot check new answers. "
            "Start a new stress test of your argument, or ask your instructor."
        )
    if debate.status == DebateStatus.STOPPED:
        return _(
            "This stress test stopped early, so it cannot check new answers. "
            "Start a new stress test of your argument."
        )
    return _("Wait until the stress test has finished its current step.")


def defend(*, stress: StressTest, attack_key: str, text: str) -> Defence:
    """Queue the student's answer to one attack; the engine's ``defence`` stage judges it."""
    text = (text or "").strip()
    if not text or text_problem(text) or len(text) > MAX_ANSWER_CHARS:
        raise StressError(_("Write your answer in a few sentences (at most 2000 characters)."))
    text = clean_text(text)
    with transaction.atomic():
        debate = Debate.objects.select_for_update().get(pk=stress.debate_id)
        if debate.status != DebateStatus.DONE:
            raise StressError(_refusal_while(debate))
        if not getattr(stress, "offline", False):
            try:
                # Checking an answer runs the engine again: it holds a place under
                # the cap on runs and may spend the rest of the budget. Not a new
                # start, so no rate. (An offline test's rules cost nothing.)
                admit_run(
                    user=stress.student,
                    action=None,
                    reserve_usd=max(debate.budget_usd - debate.cost_usd, Decimal(0)),
                )
            except LimitReached as refused:
                raise StressError(refused.message) from refused
        state = load_state(debate)
        attack = answerable(state).get(attack_key)
        if attack is None:
            raise StressError(_("There is no such objection to answer."))
        answers = [d for d in state.defences if d.attack_key == attack_key]
        if any(d.status == DefenceStatus.ACCEPTED for d in answers):
            raise StressError(_("You have already answered this objection."))
        if len(answers) >= stress.round_limit:
            raise StressError(_("You have used every answer this objection allows."))
        seq = (stress.defences.aggregate(n=Max("seq"))["n"] or 0) + 1
        defence = Defence.objects.create(
            stress_test=stress, seq=seq, attack_id=attack.id, text=text
        )
        Debate.objects.filter(pk=debate.pk).update(
            status=DebateStatus.QUEUED, finished_at=None, stop_reason="", stop_detail=""
        )
        if stress.offline:
            # No model to wait for: the rules judge the answer now, in this transaction.
            from stresstests.offline import resume_offline

            resume_offline(stress)
        else:
            launch(debate.pk)
    return defence
