"""The engine's own event types, the same for every format.

A format declares the types its stages record (``Format.event_types``); the
engine refuses to record any other (engine/events.py), and refuses a format
that redeclares one of these (engine/formats.py).
"""

from __future__ import annotations

import re

__all__ = [
    "DEBATE_COMPLETE",
    "DEBATE_ERROR",
    "DEBATE_RESUMED",
    "DEBATE_START",
    "ENGINE_EVENT_TYPES",
    "EVENT_TYPE_PATTERN",
    "TERMINAL_EVENTS",
]

DEBATE_START = "debate_start"
DEBATE_COMPLETE = "debate_complete"
DEBATE_ERROR = "debate_error"
# The owner retried a failed run: the log goes on after its debate_error.
DEBATE_RESUMED = "debate_resumed"

ENGINE_EVENT_TYPES = frozenset({DEBATE_START, DEBATE_COMPLETE, DEBATE_ERROR, DEBATE_RESUMED})
# The log ends at one of these, unless a debate_resumed follows a debate_error.
TERMINAL_EVENTS = frozenset({DEBATE_COMPLETE, DEBATE_ERROR})
# What fits DebateEvent.type (30 characters) and reads as a name in the live page's script.
EVENT_TYPE_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,29}")
