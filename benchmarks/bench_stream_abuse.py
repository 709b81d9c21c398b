"""Benchmark: does one misbehaving model stream freeze the server? (issue 8, section 3)

The setting of bench_coach (the fake Anthropic server, the site under uvicorn,
DEBUG off, its own SQLite file unless DATABASE_URL is set, a client process),
with one more student whose model misbehaves: a 1 MB reply in 12-character
pieces (benchmarks/stream_abuse_responder.py).

1. bytes: the misbehaving turn alone. The NDJSON bytes the browser receives
   for a 1 MB reply, and their ratio to the reply. Run it with
   LLM_MAX_REPLY_CHARS=2000000 to let the whole megabyte through; by default
   the reply is cut at 100,000 characters.
2. healthz: a probe asks GET /healthz every 20 ms over its own connection
   while twenty students stream coach turns (about 0.5 s each, back to back),
   first with no misbehaving stream (baseline), then with one (the bad
   student starts at once; the phase ends when every stream has ended).
   Reported: /healthz p50 / p99 / max.

No target: the figures are reported for before/after comparison (a frozen
event loop shows as a /healthz p99 of seconds).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bench_coach import (
    PASSWORD,
    SETUP,
    Student,
    bench_env,
    free_port,
    manage,
    percentile,
    sign_in,
    start_fake_anthropic,
    start_server,
    stop,
    wait_until_up,
)
from benchmarks.coach_http import Session
from benchmarks.stream_abuse_responder import BAD_REPLY_CHARS, TRIGGER

__all__ = ["main"]

STUDENTS = 20
TURNS = 6  # back-to-back turns per student in each healthz phase
PROBE_EVERY_S = 0.02
PHASE_LIMIT_S = 300.0  # a frozen server still ends the phase


@dataclass
class Turn:
    ok: bool
    last: str
    body_bytes: int
    seconds: float


async def turn(student: Student, message: str) -> Turn:
    started = time.perf_counter()
    response = await student.session.post_json(
        "/api/coach",
        {"argument_id": student.argument_id, "message": message, "step": "claim"},
        {"X-CSRFToken": student.csrf, "Accept": "application/x-ndjson"},
    )
    lines = [json.loads(line) for line in response.body.splitlines() if line.strip()]
    last = lines[-1] if lines else {}
    return Turn(
        ok=response.status == 200 and last.get("type") == "result",
        last=last.get("type") or last.get("error") or f"HTTP {response.status}",
        body_bytes=len(response.body),
        seconds=time.perf_counter() - started,
    )


async def probe(port: int, stop_event: asyncio.Event, out: list[float]) -> None:
    session = Session("127.0.0.1", port)
    try:
        while not stop_event.is_set():
            started = time.perf_counter()
            response = await session.get("/healthz")
            if response.status == 200:
                out.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(PROBE_EVERY_S)
    finally:
        await session.close()


async def healthz_phase(
    students: list[Student], port: int, bad: Student | None
) -> tuple[list[float], list[Turn], Turn | None]:
    stop_event = asyncio.Event()
    latencies: list[float] = []
    prober = asyncio.create_task(probe(port, stop_event, latencies))
    turns: list[Turn] = []

    async def chat(student: Student) -> None:
        for index in range(TURNS):
            turns.append(await turn(student, f"Cities should limit cars, point {index}."))

    work = [chat(student) for student in students]
    bad_task = asyncio.create_task(turn(bad, f"{TRIGGER} please")) if bad else None
    try:
        await asyncio.wait_for(asyncio.gather(*work), PHASE_LIMIT_S)
        bad_turn = await asyncio.wait_for(bad_task, PHASE_LIMIT_S) if bad_task else None
    finally:
        stop_event.set()
        await prober
    return latencies, turns, bad_turn


def describe(label: str, latencies: list[float]) -> str:
    if not latencies:
        return f"  {label}: no /healthz answer"
    return (
        f"  {label}: /healthz p50 {percentile(latencies, 50):7.1f} ms   "
        f"p99 {percentile(latencies, 99):8.1f} ms   max {max(latencies):8.1f} ms   "
        f"({len(latencies)} probes)"
    )


async def run(students: list[Student], bad: Student, port: int) -> None:
    await asyncio.gather(*(sign_in(student, port) for student in [*students, bad]))
    await asyncio.gather(*(turn(student, "Warm up.") for student in students))

    alone = await turn(bad, f"{TRIGGER} please")
    cap = os.environ.get("LLM_MAX_REPLY_CHARS", "100000 (default)")
    print(f"  LLM_MAX_REPLY_CHARS: {cap}")
    print(
        f"  bytes: a {BAD_REPLY_CHARS:,}-character reply in 12-character pieces sent the browser "
        f"{alone.body_bytes:,} bytes ({alone.body_bytes / BAD_REPLY_CHARS:.2f} x the reply) "
        f"in {alone.seconds:.1f} s, ending in {alone.last!r}"
    )

    baseline, normal, _ = await healthz_phase(students, port, None)
    print(describe(f"{len(students)} students, no bad stream", baseline))
    under, normal_bad, bad_turn = await healthz_phase(students, port, bad)
    print(describe(f"{len(students)} students + 1 bad stream", under))
    if bad_turn is not None:
        print(f"    the bad stream took {bad_turn.seconds:.1f} s and ended in {bad_turn.last!r}")
    for label, turns in (("baseline", normal), ("with the bad stream", normal_bad)):
        failed = [t.last for t in turns if not t.ok]
        seconds = [t.seconds for t in turns]
        print(
            f"    students' turns {label}: {len(turns) - len(failed)} ok, {len(failed)} failed, "
            f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
        )
    await asyncio.gather(*(s.session.close() for s in [*students, bad]))


def main(argv: list[str] | None = None) -> int:
    quick = os.environ.get("BENCH_QUICK") == "1"
    global TURNS
    if quick:
        TURNS = 2
    tmp = Path(tempfile.mkdtemp(prefix="bench-abuse-"))
    prefix = f"abuse-{uuid.uuid4().hex[:8]}-"
    fake = server = None
    env: dict[str, str] = {}
    try:
        fake, fake_url = start_fake_anthropic(
            tmp, responder="benchmarks.stream_abuse_responder:respond"
        )
        env = bench_env(tmp=tmp, fake_url=fake_url)
        env["SECURE_SSL_REDIRECT"] = "0"
        manage(env, "migrate", "--noinput", "-v", "0")
        names = [f"{prefix}{index:02d}" for index in range(STUDENTS + 1)]
        created = json.loads(
            manage(env, "shell", "--no-imports", "-c", SETUP.format(names=names, password=PASSWORD))
        )
        everyone = [Student(username=name, argument_id=pk) for name, pk in created]
        port = free_port()
        server = start_server(env, port)
        asyncio.run(wait_until_up(port))
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"stream abuse: {STUDENTS} students + 1 bad stream, {database}, load average {load}")
        asyncio.run(run(everyone[:STUDENTS], everyone[STUDENTS], port))
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
