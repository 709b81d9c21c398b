"""What changed in a discussion, found once per process however many pages watch it.

The first open page of a discussion starts a *follower* (an asyncio task in the
server's event loop); the others join it. It reads the discussion's
fingerprint (``services.fingerprint``: posts, last id, hidden count, open or
closed) every ``poll`` seconds, or at once when a post is saved in this
process (``wakeups.changed``, called after the commit), and when it moved works out
the change once, for every listener (reading only the posts added since its
last look, and keeping what stands up to date: ``discussions.growing``):

* a **delta** when posts were only added: the new posts' rows and the *What
  stands* card rendered once per variant (``Variant``: a language, and
  whether the reader moderates: a classmate sees names as the class does and
  no moderation controls, an instructor every name and the hide forms), and
  the posts whose status or crux mark changed;
* a **resync** when anything else moved (a post hidden or shown, the
  discussion locked or closed, the first look): each page asks for the whole
  section again, as it would on a reload.

The author of a new post (in another tab) sees something else again ("you",
the AI check): a resync, see ``stream``. The fingerprint is
the truth; a missed poke costs at most ``poll`` seconds. Redis is not needed:
several server processes each follow by polling.

The follower runs in an empty context, outside any request, and stops when
its last listener leaves (as ``debates.live``'s followers do).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections, connection
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from discussions import wakeups
from discussions.growing import Growing
from discussions.models import Discussion
from discussions.presenters import page_context
from discussions.services import fingerprint
from discussions.standing import PostNode

__all__ = ["Change", "Listener", "Variant", "followers", "listen", "listening"]

logger = logging.getLogger(__name__)

#: A delta carries at most this many new posts; more at once (an import) is a resync.
MAX_NEW = 20

#: What a delta is rendered for: (language, whether the reader moderates: names and
#: moderation controls).
Variant = tuple[str, bool]


@dataclass
class Change:
    """From fingerprint ``before`` to ``after``; ``payloads`` per language (deltas only)."""

    before: str
    after: str
    resync: bool
    new_authors: dict[int, int] = field(default_factory=dict)  # new post id -> author id
    changed_authors: dict[int, int] = field(default_factory=dict)  # status changed
    crux_authors: dict[int, int] = field(default_factory=dict)
    statuses: dict[int, str] = field(default_factory=dict)  # post id -> new status
    claims: dict[int, tuple[str, str]] = field(default_factory=dict)  # id -> (kind, claim)
    payloads: dict[Variant, dict[str, Any]] = field(default_factory=dict)
    _encoded: dict[Variant, str] = field(default_factory=dict)

    def encoded(self, variant: Variant) -> str:
        """The variant's payload as JSON, encoded once for all its readers."""
        if variant not in self._encoded:
            self._encoded[variant] = json.dumps(
                self.payloads[variant], ensure_ascii=False, separators=(",", ":")
            )
        return self._encoded[variant]


@dataclass
class _State:
    """What the follower last saw, kept so that the next look reads only what is new."""

    fingerprint: str = ""
    cruxes: tuple[int, ...] = ()
    last_id: int = 0
    thesis: str = ""
    growing: Growing | None = None  # what stands, updated post by post
    authors: dict[int, int] = field(default_factory=dict)  # post id -> author id
    targets: dict[int, int | None] = field(default_factory=dict)  # post id -> its target
    hidden: frozenset[int] = frozenset()
    numbers: dict[int, int] = field(default_factory=dict)  # author -> N of "Classmate N"


@dataclass(frozen=True, slots=True)
class _Parts:
    count: int
    hidden: int
    open: str


def _parts(value: str) -> _Parts | None:
    """``services.fingerprint``'s parts: posts, last id, hidden posts, open (1/0)."""
    try:
        count, _last, hidden, open_now = value.split(".")
        return _Parts(count=int(count), hidden=int(hidden), open=open_now)
    except ValueError:
        return None


def _look(discussion_id: int, state: _State, variants: frozenset[Variant]) -> Change | None:
    """One look at the discussion (in the sync thread): None when nothing moved.

    Cheap at 5,000 posts when posts were only added: the new posts' places (one
    ``values_list`` query, no model instances), what stands updated by them
    (``discussions.growing``, kept in ``state``); whole posts are loaded only for
    the few rows a delta shows (new posts, posts whose status or crux mark moved,
    the cruxes). Anything else reads every post's place again (a resync)."""
    if not connection.in_atomic_block:  # a test's transaction: closing would end it
        close_old_connections()
    try:
        return _look_now(discussion_id, state, variants)
    finally:
        # A look is a request of its own: its connection ends with it (CONN_MAX_AGE
        # permitting). The thread outlives the streams it served, and a connection
        # left open there held the database long after the last follower had gone.
        if not connection.in_atomic_block:
            close_old_connections()


def _look_now(discussion_id: int, state: _State, variants: frozenset[Variant]) -> Change | None:
    discussion = Discussion.objects.filter(pk=discussion_id).first()
    if discussion is None:
        return None
    now = fingerprint(discussion=discussion)
    if now == state.fingerprint:
        return None
    before = state.fingerprint
    was, is_ = _parts(before), _parts(now)
    added = _added(discussion, state, was, is_)
    if added is not None:
        # Only posts added (none removed, hidden or shown, the discussion as open as it
        # was): read those, and update what stands by them (discussions.growing).
        moved = state.growing.add(PostNode(*place[:4]) for place in added if not place[4])
        _remember(state, added)
        resync = False
    else:
        # Anything else, or a first look: read every post's place again, and every page
        # reloads the section.
        places = list(discussion.posts.values_list(*PLACE))
        state.growing, old = Growing(PostNode(*p[:4]) for p in places if not p[4]), state.growing
        state.authors, state.targets, state.numbers = {}, {}, {}
        _remember(state, places)
        state.hidden = frozenset(p[0] for p in places if p[4])
        # A post hidden or shown moves others' statuses too: their authors are told with
        # the resync (the sentences only; the page reloads the section).
        moved = {}
        if old is not None and was is not None:
            moved = {
                pid: str(s.status)
                for pid, s in state.growing.standing.posts.items()
                if pid in old.standing.posts and old.standing.posts[pid].status != s.status
            }
        resync = True
    standing = state.growing.standing
    change = Change(before=before, after=now, resync=resync)
    authors = state.authors
    change.statuses = moved
    change.changed_authors = {pid: authors[pid] for pid in moved}
    if not resync:
        new = [place[0] for place in added]
        crux_moved = set(state.cruxes) ^ set(standing.cruxes)
        shown = set(new) | set(moved) | crux_moved | set(standing.cruxes)
        # With the posts they answer, up to the argument: page_context's tree reaches them.
        targets = state.targets
        for pk in list(shown):
            while (pk := targets.get(pk)) is not None and pk not in shown:
                shown.add(pk)
        # The rows' extras (a coach origin, an AI check) in the same query, as on the page.
        posts = list(
            discussion.posts.filter(pk__in=shown).select_related(
                "author", "coach_origin", "ai_check"
            )
        )
        by_id = {p.pk: p for p in posts}
        change.new_authors = {pk: authors[pk] for pk in new}
        change.crux_authors = {pid: authors[pid] for pid in standing.cruxes}
        change.claims = {pid: (by_id[pid].kind, by_id[pid].claim) for pid in moved}
        for variant in variants:
            language, moderator = variant
            with translation.override(language):
                payload = _payload(
                    discussion,
                    posts,
                    standing,
                    new=[by_id[pk] for pk in new],
                    touched=set(moved) | crux_moved,
                    numbers=state.numbers,
                    moderator=moderator,
                )
                if state.thesis == standing.thesis:
                    payload["thesis_notice"] = ""
                change.payloads[variant] = payload
    elif moved:
        claims = discussion.posts.filter(pk__in=moved).values_list("pk", "kind", "claim")
        change.claims = {pk: (kind, claim) for pk, kind, claim in claims}
    state.fingerprint = now
    state.cruxes, state.last_id = standing.cruxes, max(authors, default=0)
    state.thesis = standing.thesis
    return change


#: What a look reads of each post: its place in the graph, whether it counts, its author.
PLACE = ("pk", "side", "target_id", "attack_type", "hidden", "author_id")


def _added(discussion: Discussion, state: _State, was: _Parts | None, is_: _Parts | None):
    """The places of the posts added since the last look, when that is all that changed
    (and they are few enough for a delta); None otherwise."""
    if state.growing is None or was is None or is_ is None:
        return None
    count = is_.count - was.count
    if (was.hidden, was.open) != (is_.hidden, is_.open) or not 0 < count <= MAX_NEW:
        return None
    # The new posts and the hidden ones, in one query: a post hidden and another shown
    # leave the count of hidden posts as it was.
    read = discussion.posts.filter(Q(pk__gt=state.last_id) | Q(hidden=True)).values_list(*PLACE)
    added = [place for place in read if place[0] > state.last_id]
    hidden = frozenset(place[0] for place in read if place[4])
    if len(added) != count or hidden != state.hidden:
        return None
    return added


def _remember(state: _State, places: list[tuple]) -> None:
    """The authors and targets of ``places``; "Classmate N": N in the order of first posts."""
    numbers = state.numbers
    for pk, _side, target, _type, _hidden, author in places:
        state.authors[pk] = author
        state.targets[pk] = target
        if author not in numbers:
            numbers[author] = len(numbers) + 1


def _payload(
    discussion: Discussion,
    posts: list,
    standing: Any,
    *,
    new: list,
    touched: set[int],
    numbers: dict[int, int],
    moderator: bool,
) -> dict[str, Any]:
    """What a classmate's page needs to show the change, in the active language: the rows
    of ``posts`` only (those the change shows), named as ``presenters.author_names`` names
    them over the whole discussion."""
    context = page_context(
        discussion=discussion,
        posts=posts,
        standing=standing,
        viewer=AnonymousUser(),
        moderator=moderator,
    )
    context["is_open"] = discussion.is_open()
    context["post_count"] = len(standing.posts)
    rows = {}
    stack = [*context["rows_for"], *context["rows_against"]]
    while stack:
        row = stack.pop()
        rows[row.post.pk] = row
        if discussion.anonymous and not moderator:
            row.author = _("Classmate %(n)d") % {"n": numbers[row.post.author_id]}
        stack.extend(row.children)
    added = []
    for post in new:
        html = render_to_string("discussions/_post.html", {**context, "row": rows[post.pk]})
        added.append({"id": post.pk, "target": post.target_id, "side": post.side, "html": html})
    return {
        "summary": render_to_string("discussions/_what_stands.html", context),
        "thesis_notice": context["thesis_text"],  # cleared when the thesis did not move
        "crux_word": _("crux"),
        "new": added,
        "statuses": {
            str(pid): {
                "badge": rows[pid].badge,
                "text": rows[pid].status_text,
                "formal": render_to_string("discussions/_formal.html", {"row": rows[pid]}).strip(),
                "crux": rows[pid].crux,
            }
            for pid in touched
            if pid in rows
        },
    }


_look_async = sync_to_async(_look, thread_sensitive=True)


@dataclass(eq=False)
class _Follower:
    loop: asyncio.AbstractEventLoop
    discussion_id: int
    poll: float
    listeners: dict[asyncio.Queue, Variant] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    state: _State = field(default_factory=_State)
    task: asyncio.Task | None = None

    async def run(self, key: tuple[int, int]) -> None:
        wakeups.watch(self.discussion_id, self.loop, self.wake)
        try:
            while True:
                self.wake.clear()  # before the look: a poke during it means look again
                variants = frozenset(self.listeners.values())
                change = await _look_async(self.discussion_id, self.state, variants)
                self.ready.set()
                if change is not None and change.before:
                    for queue in self.listeners:
                        queue.put_nowait(change)
                with suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=self.poll)
        except asyncio.CancelledError:
            raise
        except Exception:  # the pages keep their content; a new stream starts a new follower
            logger.exception("live follower of discussion %s failed", self.discussion_id)
        finally:
            wakeups.unwatch(self.discussion_id, self.loop, self.wake)
            self.ready.set()
            if _followers.get(key) is self:
                del _followers[key]


# (id of the event loop, discussion id) -> its follower (see debates.live on loop ids).
_followers: dict[tuple[int, int], _Follower] = {}


def followers(discussion_id: int | None = None) -> int:
    """How many followers have looked at their discussion and follow it now (of one
    discussion, or of all): for tests and the bench."""
    return sum(
        1
        for (_loop, d), follower in list(_followers.items())
        if (discussion_id is None or d == discussion_id) and follower.ready.is_set()
    )


def listening(discussion_id: int) -> int:
    """How many streams of this process wait on the discussion's follower (tests, bench)."""
    return sum(
        len(follower.listeners)
        for (_loop, d), follower in list(_followers.items())
        if d == discussion_id and follower.ready.is_set()
    )


@dataclass(frozen=True, slots=True)
class Listener:
    """One stream's place at its discussion's follower: changes arrive on ``queue``."""

    queue: asyncio.Queue
    follower: _Follower

    @property
    def fingerprint(self) -> str:
        return self.follower.state.fingerprint


@asynccontextmanager
async def listen(*, discussion_id: int, variant: Variant, poll: float) -> AsyncIterator[Listener]:
    """A place at the discussion's follower, once it has looked at the discussion."""
    loop = asyncio.get_running_loop()
    key = (id(loop), discussion_id)
    follower = _followers.get(key)
    if follower is not None and (
        follower.loop is not loop or (follower.task is not None and follower.task.done())
    ):
        follower = None  # a dead loop's follower whose id was reused: never joined
    if follower is None:
        follower = _followers[key] = _Follower(loop=loop, discussion_id=discussion_id, poll=poll)
        follower.task = loop.create_task(follower.run(key), context=contextvars.Context())
    queue: asyncio.Queue = asyncio.Queue()
    # From the next look on, deltas are rendered in this variant too.
    follower.listeners[queue] = variant
    try:
        await follower.ready.wait()
        yield Listener(queue=queue, follower=follower)
    finally:
        follower.listeners.pop(queue, None)
        if not follower.listeners and follower.task is not None and not follower.task.done():
            follower.task.cancel()
            if _followers.get(key) is follower:
                del _followers[key]
            await asyncio.wait({follower.task}, timeout=2)
