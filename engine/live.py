"""The live-event bus: one follower per run, however many streams listen to it.

Each open event stream (engine/sse.py) used to follow its run alone: a
database poll loop, or a Redis subscription, per connection, so a hundred
tabs on one tournament meant a hundred poll loops. Now the first stream of a
run starts a *follower* (an asyncio task in the server's event loop) and the
others join it; the follower reads what is new once and hands each event to
every listener's queue. It stops when its last listener leaves.

What a follower hands out is a hint, never the only record: a listener that
sees a ``seq`` jump reads the gap from the database, and ``FINISHED`` (the run
is over as far as the follower can tell) makes it read what is left there.
So a follower that starts a little late, or a Redis message that is lost,
costs a query, not an event.

* With ``REDIS_URL``: one subscription to ``events_channel(run)``; when the
  channel is quiet for ``check_every`` seconds it reads the database too.
* Without: it polls the database every ``poll_interval`` seconds.

The follower runs in an empty context, outside any request: it outlives the
request that started it. Its queries go to asgiref's one shared sync thread,
which drops its database connection when it is old or broken, as a request
would at its end.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Final

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from engine.events import events_channel
from engine.models import FINISHED_STATUSES, Debate, DebateEvent

__all__ = ["FINISHED", "Listener", "StreamedEvent", "followers", "listen", "stored_after"]

logger = logging.getLogger(__name__)

BATCH = 500


@dataclass(frozen=True, slots=True)
class StreamedEvent:
    seq: int
    type: str
    payload: dict


class _Finished:
    def __repr__(self) -> str:
        return "FINISHED"


#: Put on every listener's queue when the run is over (or its follower failed).
FINISHED: Final = _Finished()


# --- the database reads -------------------------------------------------------


def _rows_after(debate_id: int, after_seq: int) -> list[StreamedEvent]:
    rows = DebateEvent.objects.filter(debate_id=debate_id, seq__gt=after_seq).order_by("seq")
    return [StreamedEvent(seq=r.seq, type=r.type, payload=r.payload) for r in rows[:BATCH]]


async def stored_after(*, debate_id: int, after_seq: int) -> list[StreamedEvent]:
    """The stored events after ``after_seq`` (at most BATCH), in the caller's context."""
    rows = DebateEvent.objects.filter(debate_id=debate_id, seq__gt=after_seq).order_by("seq")
    return [
        StreamedEvent(seq=row.seq, type=row.type, payload=row.payload) async for row in rows[:BATCH]
    ]


def _follower_read(debate_id: int, after_seq: int) -> tuple[list[StreamedEvent], bool, int]:
    """One look at the run for a follower: new events, whether it is over, the last seq."""
    close_old_connections()
    try:
        events = _rows_after(debate_id, after_seq)
        finished = False
        if not events:
            status = Debate.objects.filter(pk=debate_id).values_list("status", flat=True).first()
            finished = status is None or status in FINISHED_STATUSES
    finally:
        # A look is a request of its own: its connection ends with it (CONN_MAX_AGE
        # permitting). The thread outlives the streams it served, and a connection
        # left open there held the database long after the last follower had gone.
        close_old_connections()
    return events, finished, events[-1].seq if events else after_seq


_read = sync_to_async(_follower_read, thread_sensitive=True)


# --- followers ----------------------------------------------------------------


@dataclass(eq=False)
class _Follower:
    loop: asyncio.AbstractEventLoop
    debate_id: int
    redis_url: str
    poll_interval: float
    check_every: float
    listeners: set[asyncio.Queue] = field(default_factory=set)
    task: asyncio.Task | None = None
    position: asyncio.Future = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def hand_out(self, item: StreamedEvent | _Finished) -> None:
        for queue in self.listeners:
            queue.put_nowait(item)

    def start_after(self, seq: int) -> None:
        """Where the follower begins: after the first listener's replay (see `listen`)."""
        if not self.position.done():
            self.position.set_result(seq)

    async def run(self, key: tuple[int, int]) -> None:
        try:
            if self.redis_url:
                await self._follow_redis()
            else:
                await self._follow_polling(await self.position)
        except asyncio.CancelledError:
            raise
        except Exception:  # listeners fall back on the database: see the module docstring
            logger.exception("live follower of run %s failed", self.debate_id)
        finally:
            # No await between the last hand-out and leaving the registry: a stream
            # joins either before (and gets FINISHED) or after (and starts anew).
            self.hand_out(FINISHED)
            if _followers.get(key) is self:
                del _followers[key]

    async def _follow_polling(self, last: int) -> None:
        while True:
            events, finished, last = await _read(self.debate_id, last)
            for event in events:
                self.hand_out(event)
            if finished:
                return
            if len(events) < BATCH:
                await asyncio.sleep(self.poll_interval)

    async def _follow_redis(self) -> None:
        import redis.asyncio as redis

        client = redis.Redis.from_url(self.redis_url)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        can_await = True
        try:
            await pubsub.subscribe(events_channel(self.debate_id))
            # Subscribed first: anything saved from now on is published to us; what
            # was saved between the first listener's replay and now is read here.
            events, finished, last = await _read(self.debate_id, await self.position)
            for event in events:
                self.hand_out(event)
            if finished:
                return
            checked = time.monotonic()
            while True:
                event = _decode(await pubsub.get_message(timeout=min(self.check_every, 1.0)))
                if event is not None and event.seq == last + 1:
                    self.hand_out(event)
                    last = event.seq
                    continue
                if event is not None and event.seq <= last:
                    continue
                if event is None and time.monotonic() - checked < self.check_every:
                    continue
                # A gap, or a quiet channel: the database says what is new.
                events, finished, last = await _read(self.debate_id, last)
                for item in events:
                    self.hand_out(item)
                if finished:
                    return
                checked = time.monotonic()
        except GeneratorExit:
            # Closed without a loop (its loop ended with it pending, as a server's may when
            # it stops): nothing can be awaited now, and trying would be an error.
            can_await = False
            raise
        finally:
            # Bounded: a follower cancelled as its loop ends must not hold the loop open.
            for close in (pubsub.aclose, client.aclose) if can_await else ():
                await _close_within(close, seconds=1)


async def _close_within(close, *, seconds: float) -> None:
    """Await ``close()`` for at most ``seconds``; a failure to close is not the caller's.

    The coroutine is closed when ``wait_for`` gave up before running it (a loop
    ending), so it is never left "never awaited".
    """
    closing = close()
    try:
        await asyncio.wait_for(closing, timeout=seconds)
    except BaseException as error:
        if inspect.getcoroutinestate(closing) == inspect.CORO_CREATED:
            closing.close()
        if not isinstance(error, Exception):
            raise


def _decode(message: dict | None) -> StreamedEvent | None:
    if not message or message.get("type") != "message":
        return None
    try:
        body = json.loads(message["data"])
        return StreamedEvent(seq=int(body["seq"]), type=str(body["type"]), payload=body["payload"])
    except (ValueError, KeyError, TypeError):
        return None  # a malformed message: the database still has the event


# (id of the event loop, run id) -> its follower. One loop serves an ASGI
# process; a server that runs each request in a loop of its own gets one
# follower per stream, as before.
_followers: dict[tuple[int, int], _Follower] = {}


def followers(debate_id: int | None = None) -> int:
    """How many followers run now (of one run, or of all): for tests and the bench."""
    return sum(1 for (_loop, run) in _followers if debate_id is None or run == debate_id)


@dataclass(frozen=True, slots=True)
class Listener:
    """One stream's place at its run's follower: new events arrive on `queue`."""

    queue: asyncio.Queue
    follower: _Follower

    def replayed(self, last_seq: int) -> None:
        """Say what the stream read from the database; a new follower starts from there."""
        self.follower.start_after(last_seq)


@asynccontextmanager
async def listen(
    *, debate_id: int, redis_url: str, poll_interval: float, check_every: float
) -> AsyncIterator[Listener]:
    """A place at the run's follower (started by the first stream, shared by the others).

    Join, then read the stored events, then call `replayed` with the last seq
    read: an event saved after that read reaches the queue, and one the
    follower handed out before the join was in the read.
    """
    loop = asyncio.get_running_loop()
    key = (id(loop), debate_id)
    follower = _followers.get(key)
    # A loop's id may be reused once it is gone (each request of a synchronous
    # server or test client runs in a loop of its own): a follower left by a dead
    # loop with the same id would never answer, so it is replaced, never joined.
    if follower is not None and (
        follower.loop is not loop or (follower.task is not None and follower.task.done())
    ):
        follower = None
    if follower is None:
        follower = _followers[key] = _Follower(
            loop=loop,
            debate_id=debate_id,
            redis_url=redis_url,
            poll_interval=poll_interval,
            check_every=check_every,
        )
        # An empty context: not the request's, which ends before the follower may.
        follower.task = asyncio.get_running_loop().create_task(
            follower.run(key), context=contextvars.Context()
        )
    queue: asyncio.Queue = asyncio.Queue()
    follower.listeners.add(queue)
    try:
        yield Listener(queue=queue, follower=follower)
    finally:
        follower.listeners.discard(queue)
        if not follower.listeners and follower.task is not None and not follower.task.done():
            follower.task.cancel()
            if _followers.get(key) is follower:
                del _followers[key]
            # Let it close its Redis connection in this loop, which may end with the
            # request (a synchronous server runs each request in a loop of its own).
            await asyncio.wait({follower.task}, timeout=2)
