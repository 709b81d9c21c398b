"""The run's event log: saved with its ``seq`` first, then published on Redis.

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
- A stage's events are written together (:func:`stage_events`): inside the
  stage's transaction, with the run's row locked by ``hold_lease``, the
  counter read with that row is the truth until commit, so each event takes
  the next number in memory, and on leaving the block ONE ``UPDATE ...
  RETURNING`` moves the counter past them all (and checks it moved from where
  the lock read it: otherwise the stage rolls back) and ONE INSERT saves them.
  Two statements per stage, whatever the number of events.
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
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs, urlparse

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save

from engine.event_types import (
    DEBATE_COMPLETE,
    DEBATE_ERROR,
    DEBATE_RESUMED,
    DEBATE_START,
    ENGINE_EVENT_TYPES,
    TERMINAL_EVENTS,
)
from engine.formats import get_format
from engine.models import Debate, DebateEvent

# The engine's own types (engine/event_types.py) are named here too: the
# orchestrator, the live stream and the pages say ``events.DEBATE_START``.
__all__ = [
    "DEBATE_COMPLETE",
    "DEBATE_ERROR",
    "DEBATE_RESUMED",
    "DEBATE_START",
    "TERMINAL_EVENTS",
    "allowed_event_types",
    "event_message",
    "events_channel",
    "publish_event",
    "record_event",
    "stage_events",
]

logger = logging.getLogger(__name__)


def allowed_event_types(format_name: str) -> frozenset[str]:
    """What a run of this format may record: the engine's types and the format's own."""
    try:
        declared = get_format(format_name).event_types
    except KeyError:
        declared = ()
    return ENGINE_EVENT_TYPES | frozenset(declared)


def events_channel(debate_id: int) -> str:
    """The Redis pub/sub channel of one debate's live events.

    Redis pub/sub ignores the database number: two sites sharing one Redis server
    on databases 0 and 1 would hear each other's channels, and a follower would hand
    out another site's event as its own (same run id, next seq). The channel names
    the database of ``REDIS_URL``, so each site hears only itself.
    """
    return f"db{_redis_database()}:debate:{debate_id}:events"


def _redis_database() -> int:
    """The database number in ``REDIS_URL`` (its path, or ``?db=``), 0 when it names none."""
    url = urlparse(settings.REDIS_URL or "")
    number = parse_qs(url.query).get("db", [url.path.strip("/")])[0]
    return int(number) if number.isdigit() else 0


def event_message(event: DebateEvent) -> str:
    """The JSON published for an event (and what the SSE view sends as data)."""
    return json.dumps(
        {"seq": event.seq, "type": event.type, "payload": event.payload},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def record_event(*, debate: Debate, type: str, payload: dict[str, Any]) -> DebateEvent:
    """Save the next event of ``debate`` and publish it once the transaction commits."""
    if type not in ENGINE_EVENT_TYPES and type not in allowed_event_types(debate.format):
        raise ValueError(f"{type!r} is not an event type of the format {debate.format!r}")
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("record_event must run inside the stage's transaction.atomic()")
    pending = getattr(_open, "batch", None)
    if pending is not None and pending.debate_id == debate.pk:
        seq = pending.base + len(pending.events) + 1
        event = DebateEvent(debate=debate, seq=seq, type=type, payload=payload)
        pending.events.append(event)
        debate.event_seq = event.seq
        return event
    seq = _next_seq(connection, debate.pk)
    debate.event_seq = seq
    event = DebateEvent.objects.create(debate=debate, seq=seq, type=type, payload=payload)
    transaction.on_commit(lambda: publish_event(event))
    return event


class _Batch:
    __slots__ = ("base", "debate_id", "events")

    def __init__(self, debate: Debate) -> None:
        self.debate_id = debate.pk
        self.base = debate.event_seq
        self.events: list[DebateEvent] = []


_open = threading.local()


@contextmanager
def stage_events(debate: Debate) -> Iterator[None]:
    """Write the events recorded inside the block with two statements, on leaving it.

    ``debate`` must be the row ``hold_lease`` locked in this transaction: its
    ``event_seq`` is where the numbers go on from. An exception inside the
    block writes nothing (the transaction around it rolls back anyway).
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("stage_events must run inside the stage's transaction.atomic()")
    if getattr(_open, "batch", None) is not None:
        raise RuntimeError("stage_events blocks do not nest")
    batch = _open.batch = _Batch(debate)
    try:
        yield
    finally:
        _open.batch = None
    if batch.events:
        _save_batch(batch)


def _save_batch(batch: _Batch) -> None:
    connection = transaction.get_connection()
    seq = _next_seq(connection, batch.debate_id, by=len(batch.events))
    if seq != batch.base + len(batch.events):
        # Someone numbered an event past the lock: never write a gap or a repeat.
        raise RuntimeError(f"debate {batch.debate_id}: event counter moved under the lock")
    DebateEvent.objects.bulk_create(batch.events)
    # bulk_create sends no signal; save() would (the tournament CLI listens).
    notify = post_save.has_listeners(DebateEvent)
    for event in batch.events:
        transaction.on_commit(lambda event=event: publish_event(event))
        if notify:
            post_save.send(
                sender=DebateEvent,
                instance=event,
                created=True,
                update_fields=None,
                raw=False,
                using=connection.alias,
            )


def _next_seq(connection, debate_id: int, *, by: int = 1) -> int:
    """Move the debate's counter ``by`` on and read it back in one statement.

    Django's ``update()`` cannot return the new value, and a separate SELECT
    is one more round trip on the critical path between stages.
    """
    quote = connection.ops.quote_name
    table, column, pk = (
        quote(Debate._meta.db_table),
        quote(Debate._meta.get_field("event_seq").column),
        quote(Debate._meta.pk.column),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {column} = {column} + %s WHERE {pk} = %s RETURNING {column}",
            [by, debate_id],
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
