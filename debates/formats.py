"""Debate formats: what differs between the debates that share ONE engine.

The engine (debates/orchestrator.py, claiming.py, calls.py + ledger.py,
events.py, sse.py, tasks.py) claims a ``Debate`` row with a lease, walks its
stages, pays each model call once (the ledger replays by request hash), and
commits each stage — its rows, its events and its ``StageRun`` — in one
transaction, so a killed worker resumes at the first stage not saved. None of
that depends on *what* is being debated. A ``Format`` is the rest:

- ``stages``: name -> a stage object with ``specs(state=, round=, cheap_model=)``
  (the calls, built only from the saved state) and ``commit(debate=, state=,
  round=, results=)`` (writes inside the stage's transaction and returns a
  ``StageOutcome``: the state after it and, maybe, a stop decision);
- ``next_stage(debate, state, done)``: the next (name, round) to run, given
  the set of (name, round) already in ``StageRun``; None when there is no
  more (the engine then ends the run with MAX_ROUNDS). A static plan is the
  simplest case (:func:`from_plan`); a format whose route depends on what
  happened (an inquiry's conditional evidence retrieval, a tournament's
  bracket) reads it from the state;
- ``load_state`` / ``state_hash``: the saved rows as immutable values, and
  their sha256 for the ``StageRun`` audit (input hash = previous output hash);
- ``final_output`` / ``start_payload``: the stored outcome and the
  ``debate_start`` payload;
- optional hooks: ``after_stage`` (inside the stage's transaction, after its
  ``StageRun`` row: an audit record), ``on_finish`` (inside the finishing
  transaction, before ``debate_complete``: extra events or rows) and
  ``final_status``.

Apps register their format in ``AppConfig.ready`` (the graph debate in
debates/apps.py), so ``debates`` imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Format",
    "formats",
    "from_plan",
    "get_format",
    "register_format",
]

# (debate, state, done) -> (stage name, round) or None
NextStage = Callable[[Any, Any, frozenset], "tuple[str, int] | None"]


@dataclass(frozen=True)
class Format:
    name: str
    label: Any  # a (lazily) translated name for pages
    stages: Mapping[str, Any]
    next_stage: NextStage
    load_state: Callable[[Any], Any]
    state_hash: Callable[[Any], str]
    final_output: Callable[..., dict]
    start_payload: Callable[[Any], dict]
    after_stage: Callable[..., None] | None = None
    on_finish: Callable[..., None] | None = None
    final_status: Callable[[Any], str] | None = None
    # The page that shows a debate of this format (its live page while it
    # runs, its result once finished): debate -> URL.
    page_url: Callable[[Any], str] | None = None
    # A format with its own replay page (the stress test): debate -> URL; the
    # debates replay redirects there. None: the debates dashboard replays it.
    replay_url: Callable[[Any], str] | None = None


_FORMATS: dict[str, Format] = {}


def register_format(fmt: Format) -> None:
    """Make a format runnable; registering the same name again replaces it."""
    _FORMATS[fmt.name] = fmt


def get_format(name: str) -> Format:
    """The registered format; KeyError for an unknown name."""
    return _FORMATS[name]


def formats() -> list[Format]:
    return list(_FORMATS.values())


def from_plan(plan: Callable[[Any], list[tuple[str, int]]]) -> NextStage:
    """``next_stage`` for a format whose stages are a fixed list per debate."""

    def next_stage(debate, state, done: frozenset) -> tuple[str, int] | None:
        for step in plan(debate):
            if step not in done:
                return step
        return None

    return next_stage
