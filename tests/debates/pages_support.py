"""Helpers for the debate page tests: real debates, run by the real orchestrator.

A finished debate comes from ``run_debate`` against the fake Anthropic server
playing ``FakeDebateModel``, through the real SDK: the pages are tested on the
rows and events the pipeline really writes, not on hand-made look-alikes.
"""

from __future__ import annotations

import importlib
import threading

from django.db import connections

from engine.models import Debate, Persona
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

__all__ = ["ensure_default_personas", "finished_debate"]

_DEFAULT_PERSONAS = importlib.import_module("debates.migrations.0002_default_personas")


def ensure_default_personas() -> None:
    """Put back the personas the data migration ships, if a flush took them.

    Transactional tests (live_asgi) end with a flush that empties every table,
    data-migration rows included. Django's serialized_rollback would restore
    them, but not once Playwright runs: its event loop gives the test a
    different database connection object, one without the serialized copy.
    """
    for name, worldview in _DEFAULT_PERSONAS.DEFAULT_PERSONAS:
        Persona.objects.get_or_create(name=name, defaults={"worldview": worldview})


def finished_debate(
    fake_anthropic,
    *,
    creator=None,
    personas: int = 2,
    rounds: int = 2,
    topic: str = "Cities should ban cars from their centres",
    model: FakeDebateModel | None = None,
    in_thread: bool = False,
) -> Debate:
    """A debate run to its end (the fake model rejects every third attack by default).

    ``in_thread`` runs the orchestrator in a thread of its own: browser tests
    need it, because Playwright's sync API keeps an event loop running in the
    test's thread and the orchestrator starts its own. (A thread has its own
    database connection, so it needs a transactional test database.)
    """
    fake_anthropic.responder = model or FakeDebateModel(invalid_every=3)
    debate = make_debate(personas=personas, rounds=rounds, topic=topic)
    if creator is not None:
        Debate.objects.filter(pk=debate.pk).update(creator=creator)
    if in_thread:
        worker = threading.Thread(target=_run_and_close, kwargs={"debate_id": debate.pk})
        worker.start()
        worker.join()
    else:
        run_debate(debate_id=debate.pk)
    debate.refresh_from_db()
    return debate


def _run_and_close(*, debate_id: int) -> None:
    try:
        run_debate(debate_id=debate_id)
    finally:
        connections.close_all()  # this thread's connections, or the test database stays in use
