"""GET /discussions/<id>/live/: what changes in a discussion, as server-sent events.

The page (``static/js/discussion_live.js``) opens one stream and keeps the
fingerprint of what it shows; the stream's events carry the fingerprint they
lead to as their ``id``, so a reconnecting EventSource says where it was
(``Last-Event-ID``; on the first connection ``?v=``). Events:

* ``delta``: new posts' rows, the *What stands* card, the posts whose status
  or crux mark changed (``discussions.live`` renders them once per language
  for the classmates and once for the instructors), which cruxes are the
  reader's, and a sentence for each of the reader's posts whose status
  changed (the page reads it out: aria-live);
* ``resync``: the page asks for the whole section again (``/standing/``):
  sent when the page is behind, when a post was hidden or shown or the
  discussion locked, and to the author of a new post (on another tab: their
  own row differs);
* ``stream_refused``: too many live pages open in the account.

Bounded as ``debates.sse`` is: at most ``SSE_MAX_STREAMS_PER_USER`` streams
open per account (counted in the cache with the debates' streams: one budget
of live pages), each lives at most ``SSE_MAX_STREAM_SECONDS`` (then
EventSource reconnects), a comment line every 15 s keeps proxies from
closing a quiet one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections.abc import AsyncIterator
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from classroom.models import Classroom
from config.stream_connections import give_back_connections
from discussions import live
from discussions.services import discussions_for
from engine.sse import give_stream_place_back, take_stream_place

__all__ = ["discussion_live", "notice"]

logger = logging.getLogger(__name__)

KEEPALIVE = ": keep-alive\n\n"
RETRY_MS = 2000
REFUSED_RETRY_MS = 30_000


def _event(name: str, data: dict[str, Any], *, event_id: str | None = None) -> str:
    """One SSE message; JSON holds no raw newline, so one ``data:`` line suffices."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {name}\ndata: {body}\n\n"


def notice(*, kind: str, status: str, claim: str) -> str:
    """The sentence telling an author that a post of theirs changed status."""
    claim = claim if len(claim) <= 80 else claim[:79] + "…"
    sentences = {
        ("argument", "stands"): _("Your argument “%(claim)s” now stands."),
        ("argument", "defeated"): _(
            "Your argument “%(claim)s” is now defeated: an objection to it stands. "
            "Answer that objection and it can stand again."
        ),
        ("argument", "contested"): _("Your argument “%(claim)s” is now contested."),
        ("objection", "stands"): _("Your objection “%(claim)s” now stands."),
        ("objection", "defeated"): _(
            "Your objection “%(claim)s” is now defeated: a reply to it stands. "
            "Answer that reply and it can stand again."
        ),
        ("objection", "contested"): _("Your objection “%(claim)s” is now contested."),
    }
    return sentences.get((kind, status), sentences[("argument", "contested")]) % {"claim": claim}


@lru_cache(maxsize=8)
def _you(language: str) -> str:
    """The word a reader's own posts are marked with, per language (translated once)."""
    with translation.override(language):
        return str(_("you"))


# --- the stream --------------------------------------------------------------------------


def _for_reader(
    change: live.Change, *, last: str, user_id: int, moderator: bool, language: str
) -> str:
    """The event this reader gets for ``change`` (see the module docstring)."""
    variant = (language, moderator)
    notices: list[str] = []
    # Most readers of a change have no post whose status moved: no sentence to translate
    # (this runs once per open page, in the event loop, for every change).
    if user_id in change.changed_authors.values():
        with translation.override(language):
            notices = [
                notice(kind=change.claims[pid][0], status=status, claim=change.claims[pid][1])
                for pid, status in change.statuses.items()
                if change.changed_authors.get(pid) == user_id and pid in change.claims
            ]
    if (
        change.resync
        or change.before != last
        or variant not in change.payloads
        or user_id in change.new_authors.values()
    ):
        data = {"v": change.after, "notices": notices}
        return _event("resync", data, event_id=change.after)
    mine = [pid for pid, author in change.crux_authors.items() if author == user_id]
    own = {"v": change.after, "mine": mine, "you": _you(language), "notices": notices}
    # The shared part is encoded once per language (live.Change.encoded), the reader's
    # own part here: one JSON object, the two joined at a comma.
    shared = change.encoded(variant)
    body = shared[:-1] + "," + json.dumps(own, ensure_ascii=False, separators=(",", ":"))[1:]
    return f"id: {change.after}\nevent: delta\ndata: {body}\n\n"


async def live_stream(
    *,
    discussion_id: int,
    user_id: int,
    moderator: bool,
    language: str,
    seen: str,
    lifetime: float | None,
    keepalive: float,
    poll: float,
    max_streams: int,
    refusal: str,
) -> AsyncIterator[str]:
    """SSE text for a reader whose page shows fingerprint ``seen``, until ``lifetime``.

    ``lifetime`` None: no limit (``SSE_MAX_STREAM_SECONDS=0``, as for the engine's streams);
    the stream then ends only when the reader leaves.
    """
    yield f"retry: {RETRY_MS}\n\n"
    # The view's reads are done; the watcher reads for every page (config.stream_connections).
    await give_back_connections()
    if max_streams > 0 and not await take_stream_place(
        user_id, limit=max_streams, ttl=(lifetime or 3600) + 60
    ):
        data = json.dumps({"detail": refusal}, ensure_ascii=False)
        yield f"retry: {REFUSED_RETRY_MS}\nevent: stream_refused\ndata: {data}\n\n"
        return
    try:
        deadline = time.monotonic() + lifetime if lifetime else math.inf
        async with live.listen(
            discussion_id=discussion_id, variant=(language, moderator), poll=poll
        ) as listener:
            last = listener.fingerprint
            if seen != last:
                yield _event("resync", {"v": last}, event_id=last)
            sent = time.monotonic()
            while (left := deadline - time.monotonic()) > 0:
                wait = min(keepalive - (time.monotonic() - sent), left)
                try:
                    change = await asyncio.wait_for(listener.queue.get(), timeout=max(wait, 0))
                except TimeoutError:
                    if deadline - time.monotonic() > 0:
                        yield KEEPALIVE
                        sent = time.monotonic()
                    continue
                yield _for_reader(
                    change, last=last, user_id=user_id, moderator=moderator, language=language
                )
                last, sent = change.after, time.monotonic()
    finally:
        if max_streams > 0:
            await give_stream_place_back(user_id)


@login_required
async def discussion_live(request: HttpRequest, discussion_id: int) -> HttpResponse:
    """The stream of one discussion's page; the same 404 as the page for anyone else."""
    if request.method != "GET":
        return HttpResponse(status=405)
    user = await request.auser()
    classroom_id = (
        await discussions_for(user)
        .filter(pk=discussion_id)
        .values_list("classroom_id", flat=True)
        .afirst()
    )
    if classroom_id is None:
        raise Http404("No such discussion")
    moderator = await Classroom.objects.taught_by(user).filter(pk=classroom_id).aexists()
    seen = (request.headers.get("Last-Event-ID") or request.GET.get("v") or "")[:80]
    response = StreamingHttpResponse(
        live_stream(
            discussion_id=discussion_id,
            user_id=user.pk,
            moderator=moderator,
            language=translation.get_language() or settings.LANGUAGE_CODE,
            seen=seen,
            lifetime=float(settings.SSE_MAX_STREAM_SECONDS) or None,
            keepalive=float(getattr(settings, "DISCUSSION_SSE_KEEPALIVE_SECONDS", 15.0)),
            poll=float(getattr(settings, "DISCUSSION_LIVE_POLL_SECONDS", 1.0)),
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
    response["X-Accel-Buffering"] = "no"  # nginx would hold events back
    return response
