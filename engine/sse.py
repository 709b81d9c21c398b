"""GET /debates/<id>/events: a run's event log as server-sent events (every format's).

The stream first replays the stored events after ``Last-Event-ID`` (the header
EventSource sends when it reconnects, or ``?last_event_id=`` for tools and
tests), then follows live ones, and ends after ``debate_complete`` or
``debate_error`` (a ``debate_error`` followed by ``debate_resumed``, a retry,
does not end it). Every event is framed with ``id: <seq>`` so a reconnecting
browser resumes exactly where it stopped.

Live events come from the run's one follower (engine/live.py: a Redis
subscription with ``REDIS_URL``, else a database poll), shared by every
stream of the run in this process. The stream joins it *before* it reads the
database, so an event saved after the read reaches it through the follower;
events seen both ways are dropped by ``seq``, and a ``seq`` that skips reads
the gap back from the database, the source of truth.

What one account can hold is bounded:

* at most ``SSE_MAX_STREAMS_PER_USER`` streams open at once (counted in the
  cache, so across web workers when it is Redis). One more gets a short
  stream with a ``stream_refused`` event (a plain sentence) and ``retry:``
  of half a minute, so a browser tab waits before it asks again;
* each stream lives at most ``SSE_MAX_STREAM_SECONDS``; then the server ends
  it and EventSource reconnects with ``Last-Event-ID``, resuming where it was.

When nothing has been sent for ``keepalive`` seconds a comment line goes out,
so proxies keep the connection open and a vanished client is noticed. Django
closes the generator when the client disconnects; the ``finally`` blocks give
the place and the follower back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from config.stream_connections import give_back_connections
from engine import live
from engine.events import DEBATE_ERROR, DEBATE_RESUMED, TERMINAL_EVENTS
from engine.live import FINISHED, StreamedEvent, stored_after
from engine.models import FINISHED_STATUSES, Debate, DebateEvent
from engine.visibility import avisible_debates
from untrusted import parse_int

__all__ = [
    "KEEPALIVE",
    "StreamedEvent",
    "debate_events",
    "event_stream",
    "frame",
    "give_stream_place_back",
    "parse_last_event_id",
    "reopen_ms",
    "take_stream_place",
]

logger = logging.getLogger(__name__)

#: A comment line: EventSource ignores it, proxies see traffic.
KEEPALIVE = ": keep-alive\n\n"
#: How long EventSource waits before reconnecting after the connection drops.
RETRY_MS = 2000
#: ... and after a refusal (too many streams open): long enough not to hammer.
REFUSED_RETRY_MS = 30_000


def reopen_ms() -> int:
    """How long a live page waits to ask again once a failed run's stream has ended
    (static/js/live_stream.js, doubling from there): a retry started elsewhere reaches it."""
    return round(settings.LIVE_REOPEN_SECONDS * 1000)


def frame(event: StreamedEvent) -> str:
    """One SSE message. JSON never contains a raw newline, so one ``data:`` line suffices."""
    data = json.dumps(
        {"seq": event.seq, "type": event.type, "payload": event.payload},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return f"id: {event.seq}\nevent: {event.type}\ndata: {data}\n\n"


def refusal_frame(detail: str) -> str:
    """The whole of a refused stream after its first line: no id, so Last-Event-ID stays."""
    data = json.dumps({"detail": detail}, ensure_ascii=False, separators=(",", ":"))
    return f"retry: {REFUSED_RETRY_MS}\nevent: stream_refused\ndata: {data}\n\n"


def parse_last_event_id(value: str | None) -> int:
    """The seq to resume after; anything but a non-negative integer a database holds means 0."""
    return parse_int(value) or 0


# --- one account's streams ------------------------------------------------------


def _streams_key(user_id: int) -> str:
    return f"sse:streams:{user_id}"


def _take_place(user_id: int, *, limit: int, ttl: float) -> bool:
    """Count one more open stream of the user; False (nothing counted) past `limit`.

    The cache's own increment, which is atomic (Redis INCR, the memory
    cache's lock); its async twin is a read and a write, and lets a flood of
    simultaneous streams through. The count expires `ttl` after the last
    stream opened (longer than any stream lives), so a worker that died with
    streams open frees their places.
    """
    key = _streams_key(user_id)
    try:
        for _attempt in range(3):
            cache.add(key, 0, ttl)
            try:
                count = cache.incr(key)
                break
            except ValueError:  # the count expired between the two: start it again
                continue
        else:
            return True
        cache.touch(key, ttl)
        if count > limit:
            cache.decr(key)
            return False
    except Exception:  # noqa: BLE001 - a cache that fails must not take the streams down
        logger.warning("open streams of user %s not counted", user_id, exc_info=True)
    return True


def _give_place_back(user_id: int) -> None:
    with contextlib.suppress(Exception):  # gone with its ttl, or the cache failed
        cache.decr(_streams_key(user_id))


_atake_place = sync_to_async(_take_place)
_agive_place_back = sync_to_async(_give_place_back)
# Other live pages (a class discussion's) count their streams in the same place.
take_stream_place = _atake_place
give_stream_place_back = _agive_place_back


# --- the stream -------------------------------------------------------------------


async def event_stream(
    *,
    debate_id: int,
    after_seq: int,
    redis_url: str,
    keepalive: float,
    poll_interval: float,
    lifetime: float | None = None,
    user_id: int | None = None,
    max_streams: int = 0,
    refusal: str = "",
) -> AsyncIterator[str]:
    """Yield SSE text for the events of ``debate_id`` after ``after_seq``, then live ones.

    `lifetime`: seconds after which the stream ends (None: never). `user_id`
    and `max_streams`: count this stream among the user's open ones, and
    send `refusal` instead when too many are open.
    """
    yield f"retry: {RETRY_MS}\n\n"
    counted = user_id is not None and max_streams > 0
    if counted and not await _atake_place(user_id, limit=max_streams, ttl=(lifetime or 3600) + 60):
        yield refusal_frame(refusal)
        return
    try:
        deadline = None if lifetime is None else time.monotonic() + lifetime
        async with live.listen(
            debate_id=debate_id,
            redis_url=redis_url,
            poll_interval=poll_interval,
            check_every=keepalive,
        ) as listener:
            async for text in _follow(
                debate_id=debate_id,
                after_seq=after_seq,
                listener=listener,
                keepalive=keepalive,
                deadline=deadline,
            ):
                yield text
    finally:
        if counted:
            await _agive_place_back(user_id)


class _End(Exception):
    """The log ended (a terminal event was sent)."""


async def _follow(
    *,
    debate_id: int,
    after_seq: int,
    listener: live.Listener,
    keepalive: float,
    deadline: float | None,
) -> AsyncIterator[str]:
    last = after_seq

    def expired() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    async def send_stored() -> AsyncIterator[str]:
        """Everything stored after `last`, batch by batch (until the lifetime ends)."""
        nonlocal last
        while True:
            batch = await stored_after(debate_id=debate_id, after_seq=last)
            for event in batch:
                yield frame(event)
                last = event.seq
                if event.type in TERMINAL_EVENTS and await _ends_log(debate_id, event):
                    raise _End
            if len(batch) < live.BATCH or expired():
                return

    # After each read that the stream outlives, its connection goes back
    # (config.stream_connections); the stream's end gives it back anyway.
    try:
        async for text in send_stored():
            yield text
        listener.replayed(last)
        finished = await _finished(debate_id=debate_id)
        await give_back_connections()
        if finished:
            # Over without a terminal event (or it landed after the read).
            async for text in send_stored():
                yield text
            return
        last_sent = time.monotonic()
        while not expired():
            wait = keepalive - (time.monotonic() - last_sent)
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
            try:
                item = await asyncio.wait_for(listener.queue.get(), timeout=max(wait, 0))
            except TimeoutError:
                if not expired():
                    yield KEEPALIVE
                    last_sent = time.monotonic()
                continue
            if item is FINISHED:
                async for text in send_stored():
                    yield text
                return
            if item.seq <= last:
                continue
            if item.seq == last + 1:
                yield frame(item)
                last = item.seq
                if item.type in TERMINAL_EVENTS:
                    if await _ends_log(debate_id, item):
                        return
                    await give_back_connections()
            else:  # a gap: the database has what the follower's hint skipped
                async for text in send_stored():
                    yield text
                await give_back_connections()
            last_sent = time.monotonic()
    except _End:
        return


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
            lifetime=float(settings.SSE_MAX_STREAM_SECONDS) or None,
            user_id=user.pk,
            max_streams=int(settings.SSE_MAX_STREAMS_PER_USER),
            # Worded here, in the request's language: the stream runs after it.
            refusal=_(
                "Too many live pages are open in your account. Close the ones you do "
                "not need: this page tries again in half a minute."
            ),
        ),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    # nginx buffers responses by default, which would hold events back.
    response["X-Accel-Buffering"] = "no"
    return response
