"""The graph debate's own event types (the engine's are in engine/events.py).

Each is recorded by a stage of debates/stages.py (or the format's finish hook)
with ``engine.events.record_event``; the live and replay pages read them.
"""

from __future__ import annotations

__all__ = [
    "ARGUMENTS_SUBMITTED",
    "ATTACKS_GENERATED",
    "EVENT_TYPES",
    "GRAPH_CONVERGENCE",
    "GRAPH_UPDATE",
    "PERSONA_FAILED",
    "VALIDATION_COMPLETE",
]

ARGUMENTS_SUBMITTED = "arguments_submitted"
ATTACKS_GENERATED = "attacks_generated"
VALIDATION_COMPLETE = "validation_complete"
GRAPH_UPDATE = "graph_update"
GRAPH_CONVERGENCE = "graph_convergence"
# A persona's reply could not be used (malformed, or the service did not
# answer): it sits that round out. {"round", "persona", "persona_id", "reason"}.
PERSONA_FAILED = "persona_failed"

EVENT_TYPES = (
    ARGUMENTS_SUBMITTED,
    ATTACKS_GENERATED,
    VALIDATION_COMPLETE,
    GRAPH_UPDATE,
    GRAPH_CONVERGENCE,
    PERSONA_FAILED,
)
