"""The debate event log: saved with its ``seq`` first, then published on Redis.

Contract (the SSE view and the replay page depend on it):

- ``record_event(debate=, type=, payload=)`` must run inside the transaction
  of the stage whose results the event describes. It takes the next ``seq``
  from the counter ``Debate.event_seq`` with an ``UPDATE ... SET event_seq =
  event_seq + 1 ... RETURNING event_seq`` (one statement, read back in the
  same round trip: PostgreSQL and SQLite >= 3.35 both have RETURNING): the
  row lock that UPDATE takes serialises concurrent writers
  until commit (PostgreSQL), and SQLite serialises writers anyway, so seqs are
  1, 2, 3 ... without gaps or repeats. A rolled-back stage rolls back its
  events and the counter together, so a resumed run starts again at the same
  seq.
- Publication is scheduled with ``transaction.on_commit``: nobody hears of an
  event that was not saved. The channel is ``debate:<id>:events`` and the
  message is JSON ``{"seq", "type", "payload"}``.
- Without ``REDIS_URL`` publication is a no-op; the SSE view then polls the
  table. A failed publish is logged, not raised: the event is already stored,
  and a follower that missed it gets it from the table on reconnect.
"""

from __future__ import annotations

import json
import logging
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import transaction

from debates.models import Debate, DebateEvent

__all__ = [
    "ARGUMENTS_SUBMITTED",
    "ATTACKS_GENERATED",
    "DEBATE_COMPLETE",
    "DEBATE_ERROR",
    "DEBATE_RESUMED",
    "DEBATE_START",
    "EVENT_TYPES",
    "register_event_types",
    "GRAPH_CONVERGENCE",
    "GRAPH_UPDATE",
    "PERSONA_FAILED",
    "TERMINAL_EVENTS",
    "VALIDATION_COMPLETE",
    "event_message",
    "events_channel",
    "publish_event",
    "record_event",
]

logger = logging.getLogger(__name__)

DEBATE_START = "debate_start"
ARGUMENTS_SUBMITTED = "arguments_submitted"
ATTACKS_GENERATED = "attacks_generated"
VALIDATION_COMPLETE = "validation_complete"
GRAPH_UPDATE = "graph_update"
GRAPH_CONVERGENCE = "graph_convergence"
DEBATE_COMPLETE = "debate_complete"
DEBATE_ERROR = "debate_error"
# A persona's reply could not be used (malformed, or the service did not
# answer): it sits that round out. {"round", "persona", "persona_id", "reason"}.
PERSONA_FAILED = "persona_failed"
# The owner retried a failed debate: the log goes on after its debate_error.
DEBATE_RESUMED = "debate_resumed"

EVENT_TYPES = (
    DEBATE_START,
    ARGUMENTS_SUBMITTED,
    ATTACKS_GENERATED,
    VALIDATION_COMPLETE,
    GRAPH_UPDATE,
    GRAPH_CONVERGENCE,
    DEBATE_COMPLETE,
    DEBATE_ERROR,
    PERSONA_FAILED,
    DEBATE_RESUMED,
)
# Event types another format adds (register_event_types, from its AppConfig.ready).
_FORMAT_EVENT_TYPES: set[str] = set()


def register_event_types(*types: str) -> None:
    """Let a debate format record its own event types (debates/formats.py)."""
    _FORMAT_EVENT_TYPES.update(types)


# The log ends at one of these, unless a debate_resumed follows a debate_error.
TERMINAL_EVENTS = frozenset({DEBATE_COMPLETE, DEBATE_ERROR})


def events_channel(debate_id: int) -> str:
    """The Redis pub/sub channel of one debate's live events."""
    return f"debate:{debate_id}:events"


def event_message(event: DebateEvent) -> str:
    """The JSON published for an event (and what the SSE view sends as data)."""
    return json.dumps(
        {"seq": event.seq, "type": event.type, "payload": event.payload},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def record_event(*, debate: Debate, type: str, payload: dict[str, Any]) -> DebateEvent:
    """Save the next event of ``debate`` and publish it once the transaction commits."""
    if type not in EVENT_TYPES and type not in _FORMAT_EVENT_TYPES:
        raise ValueError(f"unknown debate event type {type!r}")
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("record_event must run inside the stage's transaction.atomic()")
    seq = _next_seq(connection, debate.pk)
    debate.event_seq = seq
    event = DebateEvent.objects.create(debate=debate, seq=seq, type=type, payload=payload)
    transaction.on_commit(lambda: publish_event(event))
    return event


def _next_seq(connection, debate_id: int) -> int:
    """Increment the debate's counter and read it back in one statement.

    Django's ``update()`` cannot return the new value, and a separate SELECT
    is one more round trip per event on the critical path between stages.
    """
    quote = connection.ops.quote_name
    table, column, pk = (
        quote(Debate._meta.db_table),
        quote(Debate._meta.get_field("event_seq").column),
        quote(Debate._meta.pk.column),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {column} = {column} + 1 WHERE {pk} = %s RETURNING {column}",
            [debate_id],
        )
        row = cursor.fetchone()
    if row is None:
        raise Debate.DoesNotExist(f"debate {debate_id} does not exist")
    return int(row[0])


@lru_cache(maxsize=4)
def _redis_client(url: str):
    import redis

    return redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)


def publish_event(event: DebateEvent) -> None:
    """Publish one stored event on its debate's channel; a no-op without REDIS_URL."""
    url = settings.REDIS_URL
    if not url:
        return
    try:
        _redis_client(url).publish(events_channel(event.debate_id), event_message(event))
    except Exception:  # Redis down must not undo a committed stage; followers re-read the table.
        logger.exception("could not publish debate event %s #%s", event.debate_id, event.seq)
