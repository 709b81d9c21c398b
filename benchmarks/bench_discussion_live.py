"""Benchmark: a class discussion's live pages, 300 of them open while posts arrive.

The site under uvicorn (one process, DEBUG off, its own SQLite file unless
DATABASE_URL is set; no Redis unless REDIS_URL is), a discussion of
BENCH_LIVE_POSTS (5,000) posts by 300 students, and a client process:

1. each of the 300 students opens the discussion's live stream
   (``/discussions/<id>/live/``, what ``static/js/discussion_live.js`` opens);
2. quiet: /healthz is probed every 20 ms for 5 s (the streams' cost at rest);
3. posts arrive: POSTS posts, one a second, each by another student through
   the site's own forms (half arguments, half objections to a recent post),
   while /healthz is probed. Reported: how many deltas (and resyncs) reached
   the 300 pages, the delay from sending a post to each page's event (p50 /
   p95 / max), /healthz p50 / p99 during the posting, the server's CPU, and
   the load average.

What it leaves out: the author's own page reload after posting (a full page
of 5,000 posts), and the pages' requests after a resync (the authors' and
instructors'; none here).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.bench_coach import (
    bench_env,
    cpu_seconds,
    free_port,
    manage,
    percentile,
    start_server,
    stop,
    wait_until_up,
)
from benchmarks.bench_stream_flood import FORGET_STREAMS, describe, probe
from benchmarks.coach_http import Session

__all__ = ["main"]

# The claim of the k-th live post, as a delta's new row carries it.
MARKER = re.compile(rb"Live (?:argument|objection) (\d+)<")

PAGES = 300
POSTS = 20
QUIET_S = 5.0
EVERY_S = 1.0

SETUP = """
import json, random
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from classroom.models import Classroom, Membership
from discussions.models import Discussion, Post
from discussions.services import fingerprint
User = get_user_model()
rnd = random.Random(20)
room = Classroom.objects.create(name="Bench {prefix}")
users = [User.objects.create_user(f"{prefix}{{i:03d}}") for i in range({pages} + {posts})]
Membership.objects.bulk_create([Membership(classroom=room, student=u) for u in users])
discussion = Discussion.objects.create(classroom=room, title="Phones", thesis="Ban phones at school.")
ids = []
with transaction.atomic():
    for i in range({initial}):
        author = rnd.choice(users[:{pages}])
        if i < 2 or rnd.random() < 1 / 6:
            post = Post.objects.create(discussion=discussion, author=author, kind="argument",
                side=rnd.choice(["for", "against"]), claim=f"Argument {{i}}", premises=["A reason."])
        else:
            kind = rnd.choice(["rebut", "undermine", "undercut"])
            post = Post.objects.create(discussion=discussion, author=author, kind="objection",
                claim=f"Objection {{i}}", premises=[], target_id=rnd.choice(ids), attack_type=kind,
                component={{"rebut": "claim", "undermine": "premise", "undercut": "inference"}}[kind],
                premise_index=0 if kind == "undermine" else None)
        ids.append(post.pk)
cookies = []
for user in users:
    client = Client()
    client.force_login(user)
    cookies.append(client.cookies["sessionid"].value)
print(json.dumps({{"discussion": discussion.pk, "cookies": cookies, "ids": ids[-50:],
                  "fingerprint": fingerprint(discussion=discussion)}}))
"""


@dataclass
class Page:
    held: bool = False
    refused: bool = False
    arrivals: list[tuple[float, str]] = field(default_factory=list)  # (time, event)
    seen: dict[int, float] = field(default_factory=dict)  # post k -> when its row arrived


async def listen(port: int, path: str, cookie: str, page: Page, opened: asyncio.Event) -> None:
    """One page's stream: note when each event arrives, until cancelled."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
            f"Cookie: sessionid={cookie}\r\n\r\n"
        ).encode()
    )
    try:
        await writer.drain()
        buffer = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            now = time.perf_counter()
            buffer += chunk
            if not page.held and b"retry:" in buffer:
                page.held = True
                opened.set()
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"event: "):
                        name = line[7:].decode()
                        page.refused |= name == "stream_refused"
                        page.arrivals.append((now, name))
                    elif line.startswith(b"data: "):
                        for k in MARKER.findall(line):
                            page.seen.setdefault(int(k), now)
    except (OSError, asyncio.CancelledError):
        return
    finally:
        writer.close()


async def post_one(port: int, discussion: int, cookie: str, k: int, target: int) -> int:
    """One post through the site's form, as a student's browser sends it."""
    token = secrets.token_hex(16)  # the CSRF cookie's secret, echoed in the form
    session = Session("127.0.0.1", port, cookies={"sessionid": cookie, "csrftoken": token})
    if k % 2:
        path = f"/discussions/{discussion}/posts/{target}/object/"
        data = {
            "claim": f"Live objection {k}",
            "attack_type": "rebut",
            "component": "claim",
        }
    else:
        path = f"/discussions/{discussion}/arguments/"
        data = {"claim": f"Live argument {k}", "premise_1": "A reason.", "side": "for"}
    try:
        response = await session.post_form(path, {**data, "csrfmiddlewaretoken": token})
        return response.status
    finally:
        await session.close()


async def run(port: int, pid: int, created: dict, posts: int) -> None:
    discussion = created["discussion"]
    path = f"/discussions/{discussion}/live/?v={created['fingerprint']}"
    listeners, posters = created["cookies"][:PAGES], created["cookies"][PAGES:]
    pages = [Page() for _ in listeners]
    events = [asyncio.Event() for _ in listeners]
    tasks = [
        asyncio.create_task(listen(port, path, cookie, page, event))
        for cookie, page, event in zip(listeners, pages, events, strict=True)
    ]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=60)
    held = sum(p.held and not p.refused for p in pages)
    print(f"  {held} of {PAGES} pages hold a stream, {sum(p.refused for p in pages)} refused")

    before = cpu_seconds(pid) or 0
    quiet = await probe(port, QUIET_S)
    cpu = ((cpu_seconds(pid) or 0) - before) / QUIET_S * 100
    print(f"  quiet, {held} streams open: server CPU {cpu:.0f}%  {describe(quiet)}")

    sent: list[float] = []
    statuses: list[int] = []

    async def posting() -> None:
        for k in range(posts):
            started = time.perf_counter()
            sent.append(started)
            target = created["ids"][-1 - (k % len(created["ids"]))]
            statuses.append(await post_one(port, discussion, posters[k], k, target))
            await asyncio.sleep(max(0.0, EVERY_S - (time.perf_counter() - started)))

    before = cpu_seconds(pid) or 0
    started = time.perf_counter()
    probing = asyncio.create_task(probe(port, posts * EVERY_S + 2))
    await posting()
    latencies = await probing
    elapsed = time.perf_counter() - started
    cpu = ((cpu_seconds(pid) or 0) - before) / elapsed * 100
    await asyncio.sleep(1.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    delays = [
        (when - sent[k]) * 1000 for page in pages for k, when in page.seen.items() if k < len(sent)
    ]
    kinds = {"delta": 0, "resync": 0}
    for page in pages:
        for when, name in page.arrivals:
            if name in kinds and when >= sent[0]:
                kinds[name] += 1
    ok = sum(1 for s in statuses if s == 302)
    print(
        f"  {posts} posts, one a second ({ok} saved): {kinds['delta']} deltas and "
        f"{kinds['resync']} resyncs sent (posts close together share one); "
        f"{len(delays)} of {ok * held} new rows reached a page"
    )
    if delays:
        print(
            f"    post sent to its row on a page: p50 {percentile(delays, 50):6.0f} ms  p95 "
            f"{percentile(delays, 95):6.0f} ms  max {max(delays):6.0f} ms"
        )
    print(f"    while posting: server CPU {cpu:.0f}%  {describe(latencies)}")


def main(argv: list[str] | None = None) -> int:
    quick = os.environ.get("BENCH_QUICK") == "1"
    initial = int(os.environ.get("BENCH_LIVE_POSTS", "500" if quick else "5000"))
    posts = 6 if quick else POSTS
    tmp = Path(tempfile.mkdtemp(prefix="bench-discussion-live-"))
    prefix = f"live-{uuid.uuid4().hex[:8]}-"
    server = None
    env: dict[str, str] = {}
    try:
        env = bench_env(tmp=tmp, fake_url="http://127.0.0.1:9")  # no model is called
        if env.get("DATABASE_URL"):
            # As docs/coach.md recommends for production: a pool, so that the pages' opening
            # burst waits for a connection instead of passing the server's max_connections.
            env.setdefault("DATABASE_POOL_SIZE", "40")
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "shell", "--no-imports", "-c", FORGET_STREAMS)
        setup = SETUP.format(prefix=prefix, pages=PAGES, posts=posts, initial=initial)
        created = json.loads(manage(env, "shell", "--no-imports", "-c", setup))
        port = free_port()
        server = start_server(env, port)
        asyncio.run(wait_until_up(port))
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(
            f"discussion live: {PAGES} pages of a discussion of {initial} posts, {database}, "
            f"load average {load} on {os.cpu_count()} cores"
        )
        asyncio.run(run(port, server.pid, created, posts))
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"  load average after: {load}")
        return 0
    finally:
        if server is not None:
            stop(server)
        if env.get("DATABASE_URL"):
            cleanup = (
                "from django.contrib.auth import get_user_model\n"
                "from classroom.models import Classroom\n"
                f"Classroom.objects.filter(name='Bench {prefix}').delete()\n"
                f"get_user_model().objects.filter(username__startswith={prefix!r}).delete()"
            )
            manage(env, "shell", "--no-imports", "-c", cleanup)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
