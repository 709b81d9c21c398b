"""The live events of a tournament, recorded in each stage's transaction (engine/events.py).

Payloads (JSON), for the live bracket and match pages:

- ``match_started``: {"match", "bracket_round", "slot", "model_a", "model_b"} (initial stage);
- ``match_turns``: {"match", "round", "kind", "models"}: the turns a stage saved for a match
  (kind ``initial``, ``challenge`` or ``defence``; a sent-back challenge repeats ``challenge``);
- ``match_convergence``: {"match", "round", "score", "method", "converged", "summary"};
- ``match_finished``: {"match", "bracket_round", "status", "winner", "loser", "is_disputed",
  "reason", "ratings": {model: [before, after]}} (a forfeit has no ratings).
"""

from __future__ import annotations

__all__ = ["EVENT_TYPES", "MATCH_CONVERGENCE", "MATCH_FINISHED", "MATCH_STARTED", "MATCH_TURNS"]

MATCH_STARTED = "match_started"
MATCH_TURNS = "match_turns"
MATCH_CONVERGENCE = "match_convergence"
MATCH_FINISHED = "match_finished"

EVENT_TYPES = (MATCH_STARTED, MATCH_TURNS, MATCH_CONVERGENCE, MATCH_FINISHED)
