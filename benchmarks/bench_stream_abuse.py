"""Benchmark: does one misbehaving model stream freeze the server?

The setting of bench_coach (the fake Anthropic server, the site under uvicorn,
DEBUG off, its own SQLite file unless DATABASE_URL is set, a client process),
with one more student whose model misbehaves: a 1 MB reply in 12-character
pieces (benchmarks/stream_abuse_responder.py).

1. healthz: a probe asks GET /healthz every 20 ms over its own connection
   while twenty students stream coach turns (about half a second each, at
   least six back to back, and on until the probe has BENCH_MIN_PROBES
   answers, 1,000 by default, so that a p99 is not just the largest of a
   hundred), first with no misbehaving stream (baseline), then with one
   (started just before them, and started again each time it ends, so the
   whole phase has one). A bad stream still running when the students are
   done is abandoned. Reported: /healthz p50 / p99 / max, the number of
   probes, and the load average at the phase's start and end (the machine is
   shared: a figure means little without it).
2. bytes: the misbehaving turn alone. The NDJSON bytes the browser receives
   for a 1 MB reply, and their ratio to the reply (counted, not kept: before the
   caps they were gigabytes). With LLM_MAX_REPLY_CHARS=2000000 the whole
   megabyte goes through; by default it is cut at 100,000 characters.
   BENCH_ABUSE_LIMIT_S (600) bounds each phase; BENCH_ABUSE_ONLY_BYTES=1
   runs only this one.

No target: the figures are reported for before/after comparison (a frozen
event loop shows as a /healthz p99 of seconds).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from benchmarks.bench_coach import (
    Student,
    bench_env,
    create_students,
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

__all__ = ["MIN_PROBES", "UNLIMITED_TURNS", "Probe", "describe", "main", "page_probe"]

STUDENTS = 20
TURNS = 6  # back-to-back turns per student in each healthz phase
PROBE_EVERY_S = 0.02
# Answers the probe must have before a healthz phase may end: at 20 ms apart about
# 25 s of probing, and a p99 over the 10 slowest rather than the single slowest.
MIN_PROBES = int(os.environ.get("BENCH_MIN_PROBES", "1000"))
PHASE_LIMIT_S = float(os.environ.get("BENCH_ABUSE_LIMIT_S", "600"))  # a frozen server still ends


# Students turn on until the probe has its answers (thirty turns or more a phase):
# the per-minute rate and the spending quotas would refuse them, which is not measured here.
UNLIMITED_TURNS = {
    "RATE_COACH_TURNS_PER_MINUTE": "100000",
    "QUOTA_DAILY_USD": "100000",
    "QUOTA_MONTHLY_USD": "100000",
}


class CountingSession(Session):
    """A Session that counts a chunked body's bytes and keeps only the head of its last line.

    Before the caps a 1 MB reply sent the browser gigabytes, in lines of up to
    a megabyte: holding them would measure the client's memory, not the server.
    """

    HEAD = 256
    body_bytes = 0

    async def _read_body(self, headers: dict[str, str]) -> bytes:
        if headers.get("transfer-encoding", "").lower() != "chunked":
            body = await super()._read_body(headers)
            self.body_bytes = len(body)
            return body
        self.body_bytes = 0
        current, last = b"", b""  # the heads of the line being read and of the last one
        while True:
            size = int((await self._reader.readline()).split(b";")[0], 16)
            chunk = await self._reader.readexactly(size + 2)  # data + CRLF
            if size == 0:
                return current if current.strip() else last
            self.body_bytes += size
            *complete, rest = chunk[:-2].split(b"\n")
            for part in complete:
                current = (current + part[: self.HEAD])[: self.HEAD]
                if current.strip():
                    last = current
                current = b""
            current = (current + rest[: self.HEAD])[: self.HEAD]


def last_line_kind(head: bytes) -> dict[str, str]:
    """The type or error code of an NDJSON line from its first bytes."""
    kind = re.search(rb'^\{"(type|error)": "(\w+)"', head.strip())
    return {kind.group(1).decode(): kind.group(2).decode()} if kind else {}


@dataclass
class Turn:
    ok: bool
    last: str
    body_bytes: int
    seconds: float


async def sign_in_counting(student: Student, port: int) -> None:
    await sign_in(student, port)
    signed_in = student.session
    await signed_in.close()
    student.session = CountingSession(signed_in.host, port, cookies=signed_in.cookies)


async def turn(student: Student, message: str) -> Turn:
    started = time.perf_counter()
    response = await student.session.post_json(
        "/api/coach",
        {"argument_id": student.argument_id, "message": message, "step": "claim"},
        {"X-CSRFToken": student.csrf, "Accept": "application/x-ndjson"},
    )
    last = last_line_kind(response.body)
    return Turn(
        ok=response.status == 200 and last.get("type") == "result",
        last=last.get("type") or last.get("error") or f"HTTP {response.status}",
        body_bytes=student.session.body_bytes,
        seconds=time.perf_counter() - started,
    )


async def bad_turn(bad: Student, *, limit_s: float) -> Turn:
    """The misbehaving turn; past `limit_s` it is abandoned (its connection closed)."""
    started = time.perf_counter()
    task = asyncio.create_task(turn(bad, f"{TRIGGER} please"))
    try:
        done, _ = await asyncio.wait({task}, timeout=limit_s)
    except asyncio.CancelledError:
        task.cancel()  # the phase abandons it: so does this turn
        await asyncio.gather(task, return_exceptions=True)
        raise
    if done:
        return task.result()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await bad.session.close()
    return Turn(
        ok=False,
        last=f"still streaming after {limit_s:.0f} s",
        body_bytes=bad.session.body_bytes,
        seconds=time.perf_counter() - started,
    )


class Probe:
    """GET /healthz every PROBE_EVERY_S over its own connection, noting each answer's time.

    Stopped while a request is still waiting (a frozen server), that request
    counts with the time it has waited so far: a lower bound, but a real one.
    /healthz is answered in the event loop (config/health.py); a second probe
    asks for a page Django serves (``PAGE_PROBE``, through every middleware),
    every 100 ms, so what the rest of the site waits for is seen too.
    """

    def __init__(
        self, port: int, path: str = "/healthz", status: int = 200, every_s: float = PROBE_EVERY_S
    ) -> None:
        self.port = port
        self.path, self.status, self.every_s = path, status, every_s
        self.load_at_start = load_average()
        self.load_at_end = ""
        self.latencies: list[float] = []
        self.waiting_since: float | None = None
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        assert self.task is not None
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        self.load_at_end = load_average()
        if self.waiting_since is not None:
            self.latencies.append((time.perf_counter() - self.waiting_since) * 1000)
        return self.latencies

    async def _run(self) -> None:
        session = Session("127.0.0.1", self.port)
        try:
            while True:
                self.waiting_since = time.perf_counter()
                response = await session.get(self.path)
                if response.status == self.status:
                    self.latencies.append((time.perf_counter() - self.waiting_since) * 1000)
                self.waiting_since = None
                await asyncio.sleep(self.every_s)
        finally:
            await session.close()


def page_probe(port: int) -> Probe:
    """The smallest page Django serves (a redirect from its favicon view), every 100 ms."""
    return Probe(port, path="/favicon.ico", status=302, every_s=0.1)


def load_average() -> str:
    """The 1-minute load average now (the machine's other work during a phase)."""
    return f"{os.getloadavg()[0]:.1f}"


async def keep_misbehaving(bad: Student, bad_turns: list[Turn]) -> None:
    """Bad turns back to back until cancelled: one misbehaving stream all phase long."""
    while True:
        bad_turns.append(await bad_turn(bad, limit_s=PHASE_LIMIT_S))


async def healthz_phase(
    students: list[Student], port: int, bad: Student | None
) -> tuple[Probe, Probe, list[Turn], Turn | None]:
    """Twenty students' turns (and the bad stream, started first) under the probe.

    The phase is the students' turns, at least TURNS each and on until the
    probe has MIN_PROBES answers: then the probe stops and a bad stream still
    running is abandoned (before the caps it outlived them by minutes). The
    bad student starts a new bad turn each time one ends.
    """
    turns: list[Turn] = []
    bad_turns: list[Turn] = []
    bad_task = asyncio.create_task(keep_misbehaving(bad, bad_turns)) if bad else None
    if bad is not None:
        while bad.session.body_bytes == 0 and not bad_task.done():
            await asyncio.sleep(0.01)  # the bad stream has begun
    probe = Probe(port)
    probe.start()
    page = page_probe(port)
    page.start()

    async def chat(student: Student) -> None:
        index = 0
        while index < TURNS or len(probe.latencies) < MIN_PROBES:
            turns.append(await turn(student, f"Cities should limit cars, point {index}."))
            index += 1

    chats = asyncio.gather(*(chat(s) for s in students))
    done, _ = await asyncio.wait({chats}, timeout=PHASE_LIMIT_S)
    await probe.stop()
    await page.stop()
    if not done:
        chats.cancel()
        await asyncio.gather(chats, return_exceptions=True)
        print(f"    the students' turns did not finish within {PHASE_LIMIT_S:.0f} s")
    bad_result = None
    if bad_task is not None:
        bad_task.cancel()
        await asyncio.gather(bad_task, return_exceptions=True)
        await bad.session.close()
        ended = [t.last for t in bad_turns]
        bad_result = Turn(
            ok=False,
            last=f"{len(bad_turns)} ended ({', '.join(sorted(set(ended))) or 'none'}), "
            "one still streaming when the phase ended",
            body_bytes=0,
            seconds=0.0,
        )
    if not done:
        # Cancelled turns left their connections mid-reply: start afresh.
        for student in students:
            await student.session.close()
    return probe, page, turns, bad_result


def describe(
    label: str, latencies: list[float], probe: Probe | None = None, path: str = "/healthz"
) -> str:
    load = f", load average {probe.load_at_start} -> {probe.load_at_end}" if probe else ""
    if not latencies:
        return f"  {label}: no {path} answer{load}"
    return (
        f"  {label}: {path} p50 {percentile(latencies, 50):7.1f} ms   "
        f"p99 {percentile(latencies, 99):8.1f} ms   max {max(latencies):8.1f} ms   "
        f"({len(latencies)} probes{load})"
    )


async def run(students: list[Student], bad: Student, port: int) -> None:
    await asyncio.gather(*(sign_in_counting(student, port) for student in [*students, bad]))
    await asyncio.gather(*(turn(student, "Warm up.") for student in students))
    cap = os.environ.get("LLM_MAX_REPLY_CHARS", "100000 (default)")
    print(f"  LLM_MAX_REPLY_CHARS: {cap}")
    if os.environ.get("BENCH_ABUSE_ONLY_BYTES") != "1":
        await healthz_phases(students, bad, port)
    await bad.session.close()
    bad.session = CountingSession(bad.session.host, bad.session.port, cookies=bad.session.cookies)
    alone = await bad_turn(bad, limit_s=PHASE_LIMIT_S)
    print(
        f"  bytes: a {BAD_REPLY_CHARS:,}-character reply in 12-character pieces sent the browser "
        f"{alone.body_bytes:,} bytes ({alone.body_bytes / BAD_REPLY_CHARS:.2f} x the reply) "
        f"in {alone.seconds:.1f} s, ending in {alone.last!r}"
    )
    await asyncio.gather(*(s.session.close() for s in [*students, bad]))


async def healthz_phases(students: list[Student], bad: Student, port: int) -> None:
    baseline, page, normal, _ = await healthz_phase(students, port, None)
    print(describe(f"{len(students)} students, no bad stream", baseline.latencies, baseline))
    print(describe("    a Django page", page.latencies, path=page.path))
    under, page, normal_bad, bad_result = await healthz_phase(students, port, bad)
    print(describe(f"{len(students)} students + 1 bad stream", under.latencies, under))
    print(describe("    a Django page", page.latencies, path=page.path))
    if bad_result is not None:
        print(f"    the bad stream: {bad_result.last}")
    for label, turns in (("baseline", normal), ("with the bad stream", normal_bad)):
        failed = [t.last for t in turns if not t.ok]
        seconds = [t.seconds for t in turns] or [0.0]
        print(
            f"    students' turns {label}: {len(turns) - len(failed)} ok, {len(failed)} failed, "
            f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
        )


def main(argv: list[str] | None = None) -> int:
    quick = os.environ.get("BENCH_QUICK") == "1"
    global TURNS, MIN_PROBES
    if quick:
        TURNS = 2
        MIN_PROBES = min(MIN_PROBES, 100)
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
        env.update(UNLIMITED_TURNS)
        manage(env, "migrate", "--noinput", "-v", "0")
        names = [f"{prefix}{index:02d}" for index in range(STUDENTS + 1)]
        everyone = create_students(env, names=names, prefix=prefix, in_class=False)
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
