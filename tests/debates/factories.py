"""Small builders for debate tests (real rows, no mocks)."""

from __future__ import annotations

from decimal import Decimal

from debates.models import Debate, Persona


def default_personas(count: int) -> list[Persona]:
    """The first ``count`` personas shipped by the data migration, by id."""
    personas = list(Persona.objects.order_by("id")[:count])
    assert len(personas) == count, "the data migration ships the default personas"
    return personas


def make_debate(
    *,
    personas: int = 2,
    rounds: int = 2,
    budget: Decimal = Decimal("5"),
    topic: str = "Cities should ban cars from their centres",
) -> Debate:
    """A queued debate, not launched: tests run the orchestrator themselves."""
    debate = Debate.objects.create(topic=topic, max_rounds=rounds, budget_usd=budget)
    debate.personas.set(default_personas(personas))
    return debate
