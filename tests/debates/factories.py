"""Small builders for debate tests (real rows, no mocks)."""

from __future__ import annotations

import importlib
from decimal import Decimal

from engine.models import Debate, Persona


def default_personas(count: int) -> list[Persona]:
    """The first ``count`` personas shipped by the data migration, in its order.

    Created again if missing: a transactional test flushes the tables,
    migration data included, for the tests that run after it.
    """
    shipped = importlib.import_module("debates.migrations.0002_default_personas")
    assert count <= len(shipped.DEFAULT_PERSONAS)
    return [
        Persona.objects.get_or_create(name=name, defaults={"worldview": worldview})[0]
        for name, worldview in shipped.DEFAULT_PERSONAS[:count]
    ]


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
