"""Starting a graph debate: the one function the new-debate view calls, and the cost estimate.

The debate is saved queued and handed to the engine (``engine.services.launch``)
on commit; retrying and resuming are the engine's, the same for every format.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction

from debates.budget import estimate_debate_cost
from engine.admission import admit_run
from engine.models import MAX_ROUNDS, MIN_ROUNDS, Debate, Persona
from engine.services import NO_KEY_MESSAGE, debates_available, launch

__all__ = ["MIN_PERSONAS", "create_debate", "estimate_cost"]


MIN_PERSONAS = 2


def estimate_cost(*, personas: Iterable[Persona], rounds: int) -> Decimal:
    """Estimated USD cost of a full debate, shown before it starts (rounded up to cents)."""
    estimate = estimate_debate_cost(
        persona_models=[p.effective_model for p in personas],
        rounds=rounds,
        cheap_model=settings.CHEAP_MODEL,
        prices=settings.LLM_PRICES,
    )
    return estimate.quantize(Decimal("0.01"), rounding="ROUND_CEILING")


def create_debate(
    *,
    topic: str,
    persona_ids: Sequence[int],
    max_rounds: int,
    budget_usd: Decimal,
    creator,
) -> Debate:
    """Save a queued debate and have it run once the transaction commits."""
    if not debates_available():
        raise ValidationError(NO_KEY_MESSAGE, code="no_api_key")
    topic = (topic or "").strip()
    if not topic:
        raise ValidationError("A debate needs a topic.", code="topic")
    personas = list(Persona.objects.filter(pk__in=set(persona_ids), active=True))
    if len(personas) < MIN_PERSONAS:
        raise ValidationError(f"Choose at least {MIN_PERSONAS} active personas.", code="personas")
    if not MIN_ROUNDS <= int(max_rounds) <= MAX_ROUNDS:
        raise ValidationError(
            f"Rounds must be between {MIN_ROUNDS} and {MAX_ROUNDS}.", code="rounds"
        )
    budget = Decimal(budget_usd)
    if budget <= 0:
        raise ValidationError("The budget must be positive.", code="budget")
    with transaction.atomic():
        if getattr(creator, "is_authenticated", False):
            _admit(user=creator, budget=budget)
        debate = Debate.objects.create(
            topic=topic,
            max_rounds=int(max_rounds),
            budget_usd=budget,
            creator=creator if getattr(creator, "is_authenticated", False) else None,
        )
        debate.personas.set(personas)
        launch(debate.pk)
    return debate


def _admit(*, user, budget: Decimal) -> None:
    """The creator's limits, before the row that counts against them is saved (engine/admission.py)."""
    admit_run(user=user, action="debate", reserve_usd=budget)
