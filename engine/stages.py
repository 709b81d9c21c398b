"""The contract of a stage: what every format's stages give the engine.

A stage is a named unit of a run with two halves:

- ``specs(state=, round=, cheap_model=)`` — the model calls it needs, built
  only from the saved state (so a resumed run rebuilds byte-identical requests
  and the ledger recognises the ones already paid);
- ``commit(debate=, state=, round=, results=)`` — runs inside the stage's one
  transaction (engine/orchestrator.py): writes the stage's rows and events and
  returns a :class:`StageOutcome`, the state after it and, when the run cannot
  or need not go on, a stop decision.

The state is the format's own immutable value (``Format.load_state``); the
engine only passes it along and hashes it (``Format.state_hash``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # the contract names them; the registry (engine/formats.py) needs none
    from engine.calls import CallResult, CallSpec
    from engine.models import Debate
    from engine.stopping import StopDecision

__all__ = ["Stage", "StageOutcome"]


@dataclass(frozen=True, slots=True)
class StageOutcome:
    """What a committed stage leaves: the state after it, and a stop decision if any.

    ``written``: what the stage wrote, in the format's own shape, for its
    ``after_stage`` hook (which would otherwise read the rows back); the engine
    never looks at it.
    """

    after: Any
    stop: StopDecision | None = None
    written: Any = None


@runtime_checkable
class Stage(Protocol):
    """One stage of a format (checked when the format registers: engine/formats.py)."""

    name: str

    def specs(self, *, state: Any, round: int, cheap_model: str) -> list[CallSpec]: ...

    def commit(
        self, *, debate: Debate, state: Any, round: int, results: Sequence[CallResult]
    ) -> StageOutcome: ...
