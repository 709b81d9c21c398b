"""Benchmark: can one account's event streams slow the site for everyone?

The site under uvicorn (DEBUG off, its own SQLite file unless DATABASE_URL is
set), one running debate with a few stored events, and a client process:

1. flood: one signed-in account opens BENCH_FLOOD_STREAMS (500) event streams
   of the debate at once and keeps what the server keeps open. Reported: how
   many streams the server holds for that account, how many it refused, the
   server's threads, and /healthz p50 / p99 (a probe every 20 ms on its own
   connection) while they are held, against a baseline with no stream.
2. listeners: fifty accounts hold four streams each of the same (demo) debate (200
   listeners, each within its account's cap). Reported: the server's CPU
   while nothing happens (each poll loop costs CPU even on a quiet run) and
   /healthz p50 / p99.

No target: the figures are for before/after comparison (once, 500
connections held by one account pushed /healthz p99 to 1.11 s).
"""

from __future__ import annotations

import asyncio
import json
import os
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
    start_fake_anthropic,
    start_server,
    stop,
    wait_until_up,
)
from benchmarks.coach_http import Session

__all__ = ["main"]

FLOOD = int(os.environ.get("BENCH_FLOOD_STREAMS", "500"))
ACCOUNTS, PER_ACCOUNT = 50, 4
HOLD_S = 5.0
PROBE_EVERY_S = 0.02

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from engine.events import record_event
from engine.models import Debate, DebateStatus
User = get_user_model()
users = [User.objects.create_user(f"{prefix}{{i:02d}}") for i in range({accounts})]
debate = Debate.objects.create(topic="Should cities ban cars?", creator=users[0], is_demo=True,
                               status=DebateStatus.RUNNING)
with transaction.atomic():
    for index in range(20):
        record_event(debate=debate, type="graph_update", payload={{"round": index}})
cookies = []
for user in users:
    client = Client()
    client.force_login(user)
    cookies.append(client.cookies["sessionid"].value)
print(json.dumps({{"debate": debate.pk, "cookies": cookies}}))
"""

FORGET_STREAMS = """
from django.core.cache import cache
if hasattr(cache, "delete_pattern"):
    cache.delete_pattern("sse:streams:*")
elif hasattr(cache, "_cache") and hasattr(cache._cache, "get_client"):
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter("*sse:streams:*"):
        client.delete(key)
"""


@dataclass
class Flood:
    held: int = 0
    refused: int = 0
    failed: int = 0
    writers: list = field(default_factory=list)


async def open_stream(port: int, path: str, cookie: str, flood: Flood) -> None:
    """One EventSource's request; the connection stays open while the server keeps it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"Cookie: sessionid={cookie}\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        seen = b""
        while b"event: graph_update" not in seen and b"event: stream_refused" not in seen:
            chunk = await asyncio.wait_for(reader.read(65536), timeout=30)
            if not chunk:
                break
            seen += chunk
        if b"event: stream_refused" in seen:
            flood.refused += 1
            writer.close()
        elif b"event: graph_update" in seen:
            flood.held += 1
            flood.writers.append(writer)
        else:
            flood.failed += 1
            writer.close()
    except (OSError, TimeoutError):
        flood.failed += 1


async def probe(port: int, seconds: float) -> list[float]:
    """GET /healthz every PROBE_EVERY_S for `seconds` on its own connection (ms each)."""
    session = Session("127.0.0.1", port)
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    try:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            response = await session.get("/healthz")
            if response.status == 200:
                latencies.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(PROBE_EVERY_S)
    finally:
        await session.close()
    return latencies


def describe(latencies: list[float]) -> str:
    if not latencies:
        return "no /healthz answer"
    return (
        f"/healthz p50 {percentile(latencies, 50):6.1f} ms  p99 {percentile(latencies, 99):7.1f} ms"
        f"  max {max(latencies):7.1f} ms ({len(latencies)} probes)"
    )


def threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return 0


async def close_all(flood: Flood) -> None:
    for writer in flood.writers:
        writer.close()
    await asyncio.sleep(1.0)  # the server notices the hang-ups


async def measure(port: int, pid: int) -> tuple[float, str]:
    """The server's CPU share and /healthz while the probe runs HOLD_S seconds."""
    before = cpu_seconds(pid) or 0
    latencies = await probe(port, HOLD_S)
    return ((cpu_seconds(pid) or 0) - before) / HOLD_S * 100, describe(latencies)


async def run(port: int, pid: int, debate: int, cookies: list[str]) -> None:
    path = f"/debates/{debate}/events"
    cpu, healthz = await measure(port, pid)
    print(f"  baseline, no stream: server CPU {cpu:.0f}% (the probe's own requests)")
    print(f"    {' ' * 32}{healthz}")

    flood = Flood()
    await asyncio.gather(*(open_stream(port, path, cookies[0], flood) for _ in range(FLOOD)))
    cpu, healthz = await measure(port, pid)
    print(
        f"  flood: one account asked for {FLOOD} streams: {flood.held} held, "
        f"{flood.refused} refused, {flood.failed} failed; server threads {threads(pid)}, "
        f"server CPU {cpu:.0f}% while held"
    )
    print(f"    while held:{' ' * 21}{healthz}")
    await close_all(flood)

    listeners = Flood()
    await asyncio.gather(
        *(
            open_stream(port, path, cookie, listeners)
            for cookie in cookies[:ACCOUNTS]
            for _ in range(PER_ACCOUNT)
        )
    )
    cpu, healthz = await measure(port, pid)
    print(
        f"  listeners: {ACCOUNTS} accounts x {PER_ACCOUNT} streams of one quiet run: "
        f"{listeners.held} held, {listeners.refused} refused, {listeners.failed} failed; "
        f"server CPU {cpu:.0f}% while nothing happens"
    )
    print(f"    while held:{' ' * 21}{healthz}")
    await close_all(listeners)


def main(argv: list[str] | None = None) -> int:
    global FLOOD
    if os.environ.get("BENCH_QUICK") == "1":
        FLOOD = min(FLOOD, 200)
    tmp = Path(tempfile.mkdtemp(prefix="bench-flood-"))
    prefix = f"flood-{uuid.uuid4().hex[:8]}-"
    fake = server = None
    env: dict[str, str] = {}
    try:
        fake, fake_url = start_fake_anthropic(tmp)
        env = bench_env(tmp=tmp, fake_url=fake_url)
        manage(env, "migrate", "--noinput", "-v", "0")
        # User ids start again in each run's database: forget a previous run's open
        # streams in a Redis cache that outlives it.
        manage(env, "shell", "--no-imports", "-c", FORGET_STREAMS)
        setup = SETUP.format(prefix=prefix, accounts=ACCOUNTS)
        created = json.loads(manage(env, "shell", "--no-imports", "-c", setup))
        port = free_port()
        server = start_server(env, port)
        asyncio.run(wait_until_up(port))
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        follow = "Redis" if env.get("REDIS_URL") else "database polling"
        print(f"stream flood: {database}, live events by {follow}, load average {load}")
        asyncio.run(run(port, server.pid, created["debate"], created["cookies"]))
        return 0
    finally:
        for process in (server, fake):
            if process is not None:
                stop(process)
        if env.get("DATABASE_URL"):
            cleanup = (
                "from django.contrib.auth import get_user_model\n"
                f"get_user_model().objects.filter(username__startswith={prefix!r}).delete()"
            )
            manage(env, "shell", "--no-imports", "-c", cleanup)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
