"""Benchmark: do hostile PDF uploads slow everyone else down?

The setting of bench_stream_abuse (the fake Anthropic server, the site under
uvicorn with DEBUG off, its own SQLite file unless DATABASE_URL is set, a
client process): twenty students stream coach turns (at least six each, and
on until the probe has BENCH_MIN_PROBES answers, 1,000 by default) while a
probe asks GET /healthz every 20 ms, first alone (baseline), then while three other
students upload the hostile PDFs of tests/casefiles/pdfs.py back to back (a
page tree hundreds of levels deep, one that loops, one that doubles to 2**40
pages, a deflate bomb, a token bomb, pages that each take seconds, 50,000
empty pages). Their rate of sources per hour is raised for the run
(RATE_SOURCES_PER_HOUR=10000), so the readers' limits, not the rate, are measured.

Reported per phase: /healthz p50 / p99 / max (goal: p99 < 100 ms), the
number of probes and the load average at the phase's start and end, the
students' turns, the uploads and their answers, and the server's peak memory
(resident set of the uvicorn process alone, and with the PDF readers it
started), sampled every 20 ms from /proc. BENCH_UPLOAD_LIMIT_S (600) bounds
each phase, so a frozen server still ends.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from benchmarks import bench_stream_abuse
from benchmarks.bench_coach import (
    Student,
    bench_env,
    create_students,
    free_port,
    manage,
    percentile,
    start_fake_anthropic,
    start_server,
    stop,
    wait_until_up,
)
from benchmarks.bench_stream_abuse import (
    UNLIMITED_TURNS,
    Probe,
    Turn,
    describe,
    page_probe,
    sign_in_counting,
    turn,
)
from tests.casefiles.pdfs import HOSTILE_PDFS

__all__ = ["main"]

STUDENTS = 20
UPLOADERS = 3
TURNS = 6
HEALTHZ_GOAL_MS = 100.0
PHASE_LIMIT_S = float(os.environ.get("BENCH_UPLOAD_LIMIT_S", "600"))

CASE_FILES = """
import json
from django.contrib.auth import get_user_model
from casefiles.services import create_case_file
out = []
for name in {names!r}:
    user = get_user_model().objects.get(username=name)
    out.append(create_case_file(owner=user, title="Readings").pk)
print(json.dumps(out))
"""


class MemoryWatch:
    """Peak resident memory of a process, alone and with its children, from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_self_kb = 0
        self.peak_with_children_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _rss_kb(pid: int) -> int:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def _children(self) -> list[int]:
        pids: list[int] = []
        for task in Path(f"/proc/{self.pid}/task").glob("*"):
            try:
                pids += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                continue
        return pids

    def _run(self) -> None:
        while not self._stop.is_set():
            own = self._rss_kb(self.pid)
            total = own + sum(self._rss_kb(child) for child in self._children())
            self.peak_self_kb = max(self.peak_self_kb, own)
            self.peak_with_children_kb = max(self.peak_with_children_kb, total)
            time.sleep(0.02)

    def __enter__(self) -> MemoryWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def multipart(fields: dict[str, str], filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = f"bench{uuid.uuid4().hex}"
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        f"Content-Type: application/pdf\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), boundary


async def upload(student: Student, case_file_id: int, name: str, data: bytes) -> tuple[str, float]:
    """One upload: what the page answered (a refusal's first words, or the status) and its time."""
    body, boundary = multipart(
        {"csrfmiddlewaretoken": student.csrf, "title": name}, "hostile.pdf", data
    )
    started = time.perf_counter()
    response = await student.session.request(
        "POST",
        f"/casefiles/{case_file_id}/sources/upload/",
        body,
        {"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )
    seconds = time.perf_counter() - started
    if response.status == 400:
        text = response.body.decode("utf-8", "replace")
        start = text.find('role="alert"')
        sentence = text[start : start + 400].split(">", 1)[-1].split("<", 1)[0].strip()
        if not sentence:
            sentence = text[start:][text[start:].find("<li>") + 4 :].split("<", 1)[0].strip()
        return f"400 {sentence[:60]}", seconds
    return f"HTTP {response.status}", seconds


async def phase(
    students: list[Student], uploaders: list[tuple[Student, int]], port: int, pid: int
) -> dict:
    turns: list[Turn] = []
    answers: collections.Counter[str] = collections.Counter()
    upload_seconds: list[float] = []
    pdfs = [(name, make()) for name, make in HOSTILE_PDFS.items()]
    finished = asyncio.Event()

    async def chat(student: Student) -> None:
        index = 0
        while index < TURNS or len(probe.latencies) < bench_stream_abuse.MIN_PROBES:
            turns.append(await turn(student, f"Cities should limit cars, point {index}."))
            index += 1

    async def attack(student: Student, case_file_id: int) -> None:
        index = 0
        while not finished.is_set():
            name, data = pdfs[index % len(pdfs)]
            answer, seconds = await upload(student, case_file_id, name, data)
            answers[f"{name}: {answer}"] += 1
            upload_seconds.append(seconds)
            index += 1

    with MemoryWatch(pid) as memory:
        probe = Probe(port)
        probe.start()
        page = page_probe(port)
        page.start()
        attacks = [asyncio.create_task(attack(s, pk)) for s, pk in uploaders]
        chats = asyncio.gather(*(chat(s) for s in students))
        done, _ = await asyncio.wait({chats}, timeout=PHASE_LIMIT_S)
        finished.set()
        latencies = await probe.stop()
        await page.stop()
        if not done:
            chats.cancel()
            print(f"    the students' turns did not finish within {PHASE_LIMIT_S:.0f} s")
        await asyncio.wait(attacks, timeout=PHASE_LIMIT_S) if attacks else None
        for task in attacks:
            task.cancel()
        await asyncio.gather(chats, *attacks, return_exceptions=True)
    return {
        "probe": probe,
        "page": page,
        "latencies": latencies,
        "turns": turns,
        "answers": answers,
        "upload_seconds": upload_seconds,
        "peak_self_mb": memory.peak_self_kb / 1024,
        "peak_total_mb": memory.peak_with_children_kb / 1024,
    }


def report(label: str, result: dict) -> bool:
    latencies = result["latencies"]
    print(describe(label, latencies, result["probe"]))
    page = result["page"]
    print(describe("    a Django page", page.latencies, path=page.path))
    failed = [t.last for t in result["turns"] if not t.ok]
    seconds = [t.seconds for t in result["turns"]] or [0.0]
    print(
        f"    students' turns: {len(result['turns']) - len(failed)} ok, {len(failed)} failed, "
        f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
    )
    if result["upload_seconds"]:
        ups = result["upload_seconds"]
        print(
            f"    uploads: {len(ups)}, median {statistics.median(ups):.2f} s, max {max(ups):.2f} s"
        )
        for answer, count in sorted(result["answers"].items()):
            print(f"      {count:3d} x {answer}")
    print(
        f"    server peak memory: {result['peak_self_mb']:.0f} MB (uvicorn), "
        f"{result['peak_total_mb']:.0f} MB with the PDF readers"
    )
    p99 = percentile(latencies, 99) if latencies else float("inf")
    return p99 < HEALTHZ_GOAL_MS


async def run(students: list[Student], uploaders: list[tuple[Student, int]], port: int, pid: int):
    everyone = [*students, *(u for u, _ in uploaders)]
    await asyncio.gather(*(sign_in_counting(s, port) for s in everyone))
    await asyncio.gather(*(turn(student, "Warm up.") for student in students))
    baseline = await phase(students, [], port, pid)
    report(f"{len(students)} students, no uploads", baseline)
    attacked = await phase(students, uploaders, port, pid)
    met = report(f"{len(students)} students + {len(uploaders)} uploading hostile PDFs", attacked)
    verdict = "met" if met else "NOT met"
    print(f"  goal /healthz p99 < {HEALTHZ_GOAL_MS:.0f} ms with the uploads: {verdict}")
    await asyncio.gather(*(s.session.close() for s in [*students, *(u for u, _ in uploaders)]))


def main(argv: list[str] | None = None) -> int:
    global TURNS
    if os.environ.get("BENCH_QUICK") == "1":
        TURNS = 2
        bench_stream_abuse.MIN_PROBES = min(bench_stream_abuse.MIN_PROBES, 100)
    tmp = Path(tempfile.mkdtemp(prefix="bench-upload-"))
    prefix = f"upload-{uuid.uuid4().hex[:8]}-"
    fake = server = None
    env: dict[str, str] = {}
    try:
        fake, fake_url = start_fake_anthropic(
            tmp, responder="benchmarks.stream_abuse_responder:respond"
        )
        env = bench_env(tmp=tmp, fake_url=fake_url)
        env["RATE_SOURCES_PER_HOUR"] = "10000"
        env.update(UNLIMITED_TURNS)
        env["LOG_LEVEL"] = "ERROR"  # a quieter server (Django still logs each 400 on stderr)
        manage(env, "migrate", "--noinput", "-v", "0")
        names = [f"{prefix}{index:02d}" for index in range(STUDENTS + UPLOADERS)]
        everyone = create_students(env, names=names, prefix=prefix, in_class=False)
        case_files = json.loads(
            manage(env, "shell", "--no-imports", "-c", CASE_FILES.format(names=names[STUDENTS:]))
        )
        uploaders = list(zip(everyone[STUDENTS:], case_files, strict=True))
        port = free_port()
        server = start_server(env, port)
        asyncio.run(wait_until_up(port))
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(
            f"upload abuse: {STUDENTS} students + {UPLOADERS} uploading hostile PDFs, "
            f"{database}, load average {load}"
        )
        asyncio.run(run(everyone[:STUDENTS], uploaders, port, server.pid))
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
