"""GET /debates/<id>/events: a debate's event log as server-sent events.

The stream first replays the stored events after ``Last-Event-ID`` (the header
EventSource sends when it reconnects, or ``?last_event_id=`` for tools and
tests), then follows live ones, and ends after ``debate_complete`` or
``debate_error`` (a ``debate_error`` followed by ``debate_resumed``, a retry,
does not end it). Every event is framed with ``id: <seq>`` so a reconnecting
browser resumes exactly where it stopped.

Following live events:

* With ``REDIS_URL`` the stream subscribes to ``events_channel(debate_id)``
  *before* it reads the database. An event saved after the read is therefore
  published to a subscription that already exists, and one saved before it is
  in the read; events seen both ways are dropped by ``seq``. A published event
  that skips a ``seq`` (a message lost while Redis reconnected, say) makes the
  stream read the gap back from the database, which is the source of truth.
* Without ``REDIS_URL`` (the embedded default) it polls the database.

Either way, when nothing has been sent for ``keepalive`` seconds a comment
line goes out, so proxies keep the connection open and a vanished client is
noticed. Django cancels the generator when the client disconnects; the
``finally`` blocks give the Redis connection back.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse

from debates.events import DEBATE_ERROR, DEBATE_RESUMED, TERMINAL_EVENTS, events_channel
from debates.models import FINISHED_STATUSES, Debate, DebateEvent
from debates.visibility import avisible_debates
from untrusted import parse_int

__all__ = [
    "KEEPALIVE",
    "StreamedEvent",
    "debate_events",
    "event_stream",
    "frame",
    "parse_last_event_id",
]

#: A comment line: EventSource ignores it, proxies see traffic.
KEEPALIVE = ": keep-alive\n\n"
#: How long EventSource waits before reconnecting after the connection drops.
RETRY_MS = 2000
BATCH = 500


@dataclass(frozen=True, slots=True)
class StreamedEvent:
    seq: int
    type: str
    payload: dict


def frame(event: StreamedEvent) -> str:
    """One SSE message. JSON never contains a raw newline, so one ``data:`` line suffices."""
    data = json.dumps(
        {"seq": event.seq, "type": event.type, "payload": event.payload},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def parse_last_event_id(value: str | None) -> int:
    """The seq to resume after; anything but a non-negative integer a database holds means 0."""
    return parse_int(value) or 0


async def event_stream(
    *,
    debate_id: int,
    after_seq: int,
    redis_url: str,
    keepalive: float,
    poll_interval: float,
) -> AsyncIterator[str]:
    """Yield SSE text for the events of ``debate_id`` after ``after_seq``, then live ones."""
    yield f"retry: {RETRY_MS}\n\n"
    if redis_url:
        source = _follow_redis(
            debate_id=debate_id, after_seq=after_seq, redis_url=redis_url, keepalive=keepalive
        )
    else:
        source = _follow_polling(
            debate_id=debate_id,
            after_seq=after_seq,
            keepalive=keepalive,
            poll_interval=poll_interval,
        )
    async for text in source:
        yield text


async def _follow_polling(
    *, debate_id: int, after_seq: int, keepalive: float, poll_interval: float
) -> AsyncIterator[str]:
    last = after_seq
    last_sent = time.monotonic()
    while True:
        events = await _stored_after(debate_id=debate_id, after_seq=last)
        for event in events:
            yield frame(event)
            last = event.seq
            if event.type in TERMINAL_EVENTS and await _ends_log(debate_id, event):
                return
        if events:
            last_sent = time.monotonic()
        elif await _finished(debate_id=debate_id):
            return
        elif time.monotonic() - last_sent >= keepalive:
            yield KEEPALIVE
            last_sent = time.monotonic()
        if not events:
            await asyncio.sleep(poll_interval)


async def _follow_redis(
    *, debate_id: int, after_seq: int, redis_url: str, keepalive: float
) -> AsyncIterator[str]:
    import redis.asyncio as redis

    client = redis.Redis.from_url(redis_url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    try:
        # Subscribe first, read the database second: see the module docstring.
        await pubsub.subscribe(events_channel(debate_id))
        last = after_seq
        for event in await _stored_after(debate_id=debate_id, after_seq=last):
            yield frame(event)
            last = event.seq
            if event.type in TERMINAL_EVENTS and await _ends_log(debate_id, event):
                return
        if await _finished(debate_id=debate_id):
            # Over without a terminal event (or it landed after the read): nothing to follow.
            for event in await _stored_after(debate_id=debate_id, after_seq=last):
                yield frame(event)
            return
        last_sent = time.monotonic()
        while True:
            message = await pubsub.get_message(timeout=min(keepalive, 1.0))
            event = _decode(message)
            if event is None:
                # Quiet: make sure nothing was missed and the debate is still going.
                if time.monotonic() - last_sent < keepalive:
                    continue
                missed = await _stored_after(debate_id=debate_id, after_seq=last)
                if not missed and await _finished(debate_id=debate_id):
                    return
                batch = missed
            elif event.seq <= last:
                continue
            elif event.seq == last + 1:
                batch = [event]
            else:
                batch = await _stored_after(debate_id=debate_id, after_seq=last)
            for item in batch:
                yield frame(item)
                last = item.seq
                if item.type in TERMINAL_EVENTS and await _ends_log(debate_id, item):
                    return
            if not batch:
                yield KEEPALIVE
            last_sent = time.monotonic()
    finally:
        await pubsub.aclose()
        await client.aclose()


def _decode(message: dict | None) -> StreamedEvent | None:
    if not message or message.get("type") != "message":
        return None
    try:
        body = json.loads(message["data"])
        return StreamedEvent(seq=int(body["seq"]), type=str(body["type"]), payload=body["payload"])
    except (ValueError, KeyError, TypeError):
        # A malformed message is ignored: the database still has the event.
        return None


async def _stored_after(*, debate_id: int, after_seq: int) -> list[StreamedEvent]:
    rows = DebateEvent.objects.filter(debate_id=debate_id, seq__gt=after_seq).order_by("seq")
    return [
        StreamedEvent(seq=row.seq, type=row.type, payload=row.payload) async for row in rows[:BATCH]
    ]


async def _finished(*, debate_id: int) -> bool:
    status = await Debate.objects.filter(pk=debate_id).values_list("status", flat=True).afirst()
    return status is None or status in FINISHED_STATUSES


async def _ends_log(debate_id: int, event: StreamedEvent) -> bool:
    """A terminal event ends the log, unless it is a debate_error its owner retried since."""
    if event.type != DEBATE_ERROR:
        return True
    return not await DebateEvent.objects.filter(
        debate_id=debate_id, seq__gt=event.seq, type=DEBATE_RESUMED
    ).aexists()


async def _has_terminal_up_to(*, debate_id: int, seq: int) -> bool:
    """True when the log ended at or before ``seq``: its last end-or-resume marker is an end."""
    marker = (
        await DebateEvent.objects.filter(
            debate_id=debate_id, type__in=(*TERMINAL_EVENTS, DEBATE_RESUMED)
        )
        .order_by("-seq")
        .values_list("seq", "type")
        .afirst()
    )
    return marker is not None and marker[1] in TERMINAL_EVENTS and marker[0] <= seq


@login_required
async def debate_events(request: HttpRequest, pk: int) -> HttpResponse:
    """The SSE endpoint. 204 tells EventSource to stop reconnecting to a finished log."""
    user = await request.auser()
    if not await (await avisible_debates(user)).filter(pk=pk).aexists():
        raise Http404("No such debate")
    after_seq = parse_last_event_id(
        request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    )
    if after_seq and await _has_terminal_up_to(debate_id=pk, seq=after_seq):
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        event_stream(
            debate_id=pk,
            after_seq=after_seq,
            redis_url=settings.REDIS_URL,
            keepalive=float(getattr(settings, "DEBATE_SSE_KEEPALIVE_SECONDS", 15.0)),
            poll_interval=float(getattr(settings, "DEBATE_SSE_POLL_SECONDS", 0.5)),
        ),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    # nginx buffers responses by default, which would hold events back.
    response["X-Accel-Buffering"] = "no"
    return response
