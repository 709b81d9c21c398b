"""Benchmark: twenty students chatting with the coach at once, model latency zero.

Three processes, as in production: the fake Anthropic server (zero latency),
the real ASGI app under uvicorn (DEBUG off, its own SQLite file unless
DATABASE_URL is set) and this process, where twenty asyncio clients sign in
through the login form and each stream TURNS coach turns over keep-alive
connections.

"The server's own time per turn" is measured inside the server process
(benchmarks/coach_asgi.py: request handed to Django -> last body byte handed
back) minus the model's time as the coach recorded it (CoachTurn.latency_ms,
the llm call from request to end of stream). What remains is ours: loading the
draft, intent and prompt building, parsing and forwarding the stream, guards,
the transaction that saves the turn, and waiting for the event loop and the
database while nineteen other students are served. The client's time to the
last byte is reported too, for context, and so is the server process's CPU
time per turn (all threads, /proc): unlike wall time it hardly depends on what
else the machine is running.

Two phases. "paced": students pause about THINK_S between turns, as people
do. "back-to-back": no pauses, which gives
the capacity in turns per second; latency there is queueing by Little's law
(students / throughput), so 20 students would need over 1300 turns/s to see
15 ms there.

Then the figure a student feels ("felt"): the same students, the fake model now
taking MODEL_MS (1 s) before it answers, paced turns, on a server started afresh
for it. Reported: the turn's wall time as the client sees it (request sent ->
last byte) against the model's time, with the goals p50 <= model + 20 ms and
p95 <= model + 50 ms; the server's CPU per turn; the load average at the
phase's start and end. ``--model-ms 0`` skips it. Those are the only goals: the
server's own CPU and time are figures to compare runs by, not goals.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.coach_http import Session
from benchmarks.wakes import (
    children,
    proc_stat,
    reference_work_us,
    voluntary_switches,
    wake_cost_us,
)

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
STUDENTS = 20
TURNS = 8  # back-to-back turns per student
PACED_TURNS = 5
# Draft reads each student makes, paced and back to back, after the turns: the coach
# page's cheapest signed-in request (the session and its user, the argument and its
# class's rules, read through the ORM; no model call), a floor to read a turn's CPU by.
FLOOR_READS = 3
FLOOR_BACK_TO_BACK_READS = 20
# Seconds a paced student pauses between turns (real ones take far longer):
# 20 students every 3 s offer about 7 turns/s, a third of the measured capacity.
THINK_S = 3.0
# The felt phase: the model answers after MODEL_MS; a turn's wall time may exceed it by
# at most these (a student cannot tell a few tens of milliseconds from the model's own).
MODEL_MS = 1000.0
GOAL_FELT_P50_OVER_MS = 20.0
GOAL_FELT_P95_OVER_MS = 50.0
PASSWORD = "bench-student-pass-1"
MESSAGES = [
    "I think cities should limit cars in their centres.",
    "Mostly big European cities with good public transport.",
    "Because traffic makes the air dirty and streets dangerous.",
    "I am not sure how strong the claim should be.",
    "Maybe only during the week, not at weekends.",
]


@dataclass
class Student:
    username: str
    argument_id: int
    session: Session | None = None
    csrf: str = ""
    turns: list[dict] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile: an observed value, never an interpolation."""
    ordered = sorted(values)
    rank = max(1, round(pct / 100 * len(ordered) + 0.5 - 1e-9))
    return ordered[min(rank, len(ordered)) - 1]


# --- the processes ------------------------------------------------------------


def bench_env(*, tmp: Path, fake_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        SECRET_KEY=env.get("SECRET_KEY") or "insecure-bench-only-key",
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_COOKIES="0",
        SECURE_SSL_REDIRECT="0",
        SERVE_STATIC="0",
        LOG_LEVEL="WARNING",
        ANTHROPIC_API_KEY="sk-ant-bench-key",
        ANTHROPIC_BASE_URL=fake_url,
        BENCH_TIMINGS_PATH=str(tmp / "timings.jsonl"),
        PYTHONPATH=str(ROOT),
    )
    env.pop("ANTHROPIC_AUTH_TOKEN", None)
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    return env


def start_fake_anthropic(
    tmp: Path, *, responder: str = "benchmarks.coach_responder:respond", latency_ms: float = 0
) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes.anthropic_server", "--port", "0"]
        + ["--latency-ms", str(latency_ms), "--responder", responder],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+", line)
    if not match:
        process.kill()
        raise RuntimeError(f"the fake Anthropic server did not start: {line!r}")
    return process, match.group(0)


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args[:2])} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def create_students(
    env: dict[str, str], *, names: list[str], prefix: str, in_class: bool
) -> list[Student]:
    """The students `names` (password PASSWORD) with an argument each: their work for an
    assignment of a class of their own (`in_class`), else an argument in no class."""
    script = SETUP.format(names=names, password=PASSWORD, prefix=prefix, in_class=in_class)
    created = json.loads(manage(env, "shell", "--no-imports", "-c", script))
    return [Student(username=name, argument_id=pk) for name, pk in created]


SETUP = """
import json
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from classroom.models import Assignment, Classroom, Membership
from classroom.services import make_instructor, start_submission
from coach.services import create_argument
users = get_user_model().objects
assignment = None
if {in_class!r}:
    # As in class: the arguments are the students' work for an assignment with a due
    # date, a turn quota and a required criterion, so each turn reads its rules.
    teacher = make_instructor(user=users.create_user({prefix!r} + "teacher"))
    room = Classroom.objects.create(name={prefix!r} + "class")
    room.instructors.add(teacher)
    assignment = Assignment.objects.create(
        classroom=room,
        title="Cities and cars",
        prompt="Should city centres be car-free?",
        due_at=timezone.now() + timedelta(days=7),
        turn_quota=1000,
        required_criteria={{"grounds": ["grounds_has_number_or_citation"]}},
        created_by=teacher,
    )
out = []
for name in {names!r}:
    user = users.create_user(name, password={password!r})
    if assignment is None:
        argument = create_argument(owner=user, title="Cities and cars", language="en")
    else:
        Membership.objects.create(classroom=assignment.classroom, student=user)
        argument = start_submission(assignment=assignment, student=user).argument
    out.append([name, argument.pk])
print(json.dumps(out))
"""


MODEL_TIMES = """
import json
from coach.models import CoachTurn
rows = CoachTurn.objects.filter(argument__owner__username__startswith={prefix!r})
print(json.dumps({{str(m): l for m, l in rows.values_list("assistant_message_id", "latency_ms")}}))
"""

# The rows deleted stay behind as dead tuples until autovacuum comes round (minutes
# later, if ever on a quiet database), and the next run's index scans step over them:
# runs made back to back, old tree and new in turn, slowed one another down. VACUUM
# (outside a transaction: Django autocommits) leaves the next run the tables as they were.
CLEANUP = """
from django.contrib.auth import get_user_model
from django.db import connection
from classroom.models import Classroom
Classroom.objects.filter(name__startswith={prefix!r}).delete()
get_user_model().objects.filter(username__startswith={prefix!r}).delete()
if connection.vendor == "postgresql":
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
"""


def start_server(env: dict[str, str], port: int, *, processes: int = 1) -> subprocess.Popen:
    # More than one: uvicorn's own supervisor and that many worker processes, as a
    # deployment gives each core one (their CPU is counted with cpu_seconds' tree).
    workers = ["--workers", str(processes)] if processes > 1 else []
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "benchmarks.coach_asgi:application"]
        + ["--lifespan", "off", "--host", "127.0.0.1", "--port", str(port)]
        + ["--log-level", "warning", "--no-access-log", *workers],
        cwd=ROOT,
        env=env,
    )


async def wait_until_up(port: int, *, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        session = Session("127.0.0.1", port)
        try:
            if (await session.get("/healthz")).status == 200:
                return
        except OSError:
            await asyncio.sleep(0.1)
        finally:
            await session.close()
    raise RuntimeError("uvicorn did not answer /healthz in time")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --- the students -------------------------------------------------------------


async def sign_in(student: Student, port: int) -> None:
    session = student.session = Session("127.0.0.1", port)
    page = await session.get("/accounts/login/")
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.body).group(1)
    answer = await session.post_form(
        "/accounts/login/",
        {"username": student.username, "password": PASSWORD, "csrfmiddlewaretoken": token.decode()},
    )
    if answer.status != 302 or "sessionid" not in session.cookies:
        raise RuntimeError(f"{student.username} could not sign in (HTTP {answer.status})")
    student.csrf = session.cookies["csrftoken"]


async def coach_turn(student: Student, message: str, *, record: bool) -> None:
    bench_id = uuid.uuid4().hex
    response = await student.session.post_json(
        "/api/coach",
        {"argument_id": student.argument_id, "message": message, "step": "claim"},
        {"X-CSRFToken": student.csrf, "X-Bench-Id": bench_id, "Accept": "application/x-ndjson"},
    )
    lines = [json.loads(line) for line in response.body.splitlines() if line.strip()]
    last = lines[-1] if lines else {}
    ok = response.status == 200 and last.get("type") == "result"
    if record:
        student.turns.append(
            {
                "id": bench_id,
                "ok": ok,
                "error": None if ok else last.get("error") or f"HTTP {response.status}",
                "message_id": last.get("message_id"),
                "client_ms": response.last_byte_ms,
                "deltas": sum(1 for line in lines if line.get("type") == "delta"),
            }
        )


async def read_draft(student: Student) -> None:
    response = await student.session.get(f"/api/arguments/{student.argument_id}")
    if response.status != 200:
        raise RuntimeError(f"{student.username} could not read the draft (HTTP {response.status})")


async def floor_cpu_ms(
    students: list[Student], reads: int, *, think_s: float, seed: int, server_pid: int
) -> float | None:
    """Server CPU (ms) per draft read, every student reading `reads` times, pausing about
    `think_s` between reads (0: none). What a signed-in request that does next to nothing
    costs on this machine, paced as turns are or back to back."""
    if not reads:
        return None
    rng = random.Random(seed)

    async def reader(student: Student) -> None:
        for _ in range(reads):
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think_s)
            await read_draft(student)

    before = cpu_seconds(server_pid)
    await asyncio.gather(*(reader(student) for student in students))
    after = cpu_seconds(server_pid)
    if before is None or after is None:
        return None
    return (after - before) * 1000 / (reads * len(students))


async def sign_in_and_warm_up(students: list[Student], port: int) -> None:
    await asyncio.gather(*(sign_in(student, port) for student in students))
    # One untimed turn each: imports, connection pools and caches warm up here.
    await asyncio.gather(*(coach_turn(s, MESSAGES[0], record=False) for s in students))


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU the process and its children have used so far (Linux /proc),
    all threads included: the web workers when uvicorn runs several."""
    fields = proc_stat(pid)
    if fields is None:
        return None
    ticks = int(fields[11]) + int(fields[12])
    for child in filter(None, map(proc_stat, children(pid))):
        ticks += int(child[11]) + int(child[12])
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclass
class PhaseRun:
    students: list[Student]
    elapsed_s: float
    server_cpu_s: float | None
    server_wakes: int | None = None
    floor_cpu_ms: float | None = None  # a draft read's server CPU, paced like the phase


async def run_phase(
    students: list[Student], turns: int, *, think_s: float, seed: int, server_pid: int
) -> PhaseRun:
    """Every student sends `turns` turns, pausing about `think_s` between them (0: none)."""
    rng = random.Random(seed)
    pauses = {s.username: [rng.uniform(0.5, 1.5) * think_s for _ in range(turns)] for s in students}

    async def chat(student: Student) -> None:
        for index in range(turns):
            # Students start out of step with one another, as they would in class.
            await asyncio.sleep(pauses[student.username][index])
            await coach_turn(student, MESSAGES[index % len(MESSAGES)], record=True)

    wakes_before = voluntary_switches(server_pid)
    cpu_before, started = cpu_seconds(server_pid), time.perf_counter()
    await asyncio.gather(*(chat(student) for student in students))
    elapsed, cpu_after = time.perf_counter() - started, cpu_seconds(server_pid)
    wakes_after = voluntary_switches(server_pid)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    wakes = None if wakes_before is None or wakes_after is None else wakes_after - wakes_before
    # Each phase reports only its own turns: hand them over and start afresh.
    done = [Student(s.username, s.argument_id, turns=s.turns) for s in students]
    for student in students:
        student.turns = []
    return PhaseRun(students=done, elapsed_s=elapsed, server_cpu_s=cpu, server_wakes=wakes)


async def run_students(
    students: list[Student],
    port: int,
    *,
    server_pid: int,
    paced_turns: int,
    turns: int,
    think_s: float,
    floor_reads: tuple[int, int] = (FLOOR_READS, FLOOR_BACK_TO_BACK_READS),
) -> dict[str, PhaseRun]:
    await sign_in_and_warm_up(students, port)
    common = {"server_pid": server_pid}
    paced = await run_phase(students, paced_turns, think_s=think_s, seed=1, **common)
    saturated = await run_phase(students, turns, think_s=0.0, seed=2, **common)
    paced_reads, back_to_back_reads = floor_reads
    paced.floor_cpu_ms = await floor_cpu_ms(
        students, paced_reads, think_s=think_s, seed=3, **common
    )
    saturated.floor_cpu_ms = await floor_cpu_ms(
        students, back_to_back_reads, think_s=0.0, seed=4, **common
    )
    await asyncio.gather(*(student.session.close() for student in students))
    return {"paced": paced, "back-to-back": saturated}


async def run_felt(
    students: list[Student], port: int, *, server_pid: int, turns: int, think_s: float
) -> tuple[PhaseRun, tuple[float, float]]:
    """The felt phase: sign in afresh, one untimed turn each, then `turns` paced turns.
    Also the one-minute load average at the phase's start and end."""
    await sign_in_and_warm_up(students, port)
    load_before = os.getloadavg()[0]
    run = await run_phase(students, turns, think_s=think_s, seed=5, server_pid=server_pid)
    load_after = os.getloadavg()[0]
    await asyncio.gather(*(student.session.close() for student in students))
    return run, (load_before, load_after)


# --- the report ---------------------------------------------------------------


@dataclass
class Figures:
    ok: int
    failed: int
    errors: list[str]
    elapsed_s: float
    own_ms: list[float]
    whole_ms: list[float]
    model_ms: list[float]
    client_ms: list[float]
    deltas: list[int]
    server_cpu_s: float | None
    server_wakes: int | None = None
    floor_cpu_ms: float | None = None

    @property
    def turns_per_s(self) -> float:
        return self.ok / self.elapsed_s if self.elapsed_s else 0.0


def figures(*, run: PhaseRun, timings: dict, model_ms: dict) -> Figures:
    elapsed = run.elapsed_s
    turns = [turn for student in run.students for turn in student.turns]
    good = [turn for turn in turns if turn["ok"]]
    failed = [turn for turn in turns if not turn["ok"]]
    result = Figures(
        ok=len(good),
        failed=len(failed),
        errors=sorted({str(turn["error"]) for turn in failed}),
        elapsed_s=elapsed,
        own_ms=[],
        whole_ms=[],
        model_ms=[],
        client_ms=[],
        deltas=[turn["deltas"] for turn in good],
        server_cpu_s=run.server_cpu_s,
        server_wakes=run.server_wakes,
        floor_cpu_ms=run.floor_cpu_ms,
    )
    for turn in good:
        server_ms = timings.get(turn["id"])
        model_time = model_ms.get(str(turn["message_id"]))
        if server_ms is None or model_time is None:
            continue
        result.whole_ms.append(server_ms)
        result.model_ms.append(model_time)
        result.own_ms.append(max(0.0, server_ms - model_time))
        result.client_ms.append(turn["client_ms"])
    return result


def print_phase(label: str, fig: Figures) -> None:
    print(f"  {label}: {fig.ok} turns ok, {fig.failed} failed, {fig.turns_per_s:.1f} turns/s")
    if fig.errors:
        print(f"    errors: {', '.join(fig.errors)}")
    if fig.deltas:
        print(f"    NDJSON deltas per turn (median): {statistics.median(fig.deltas):.0f}")
    if fig.server_cpu_s is not None and fig.ok:
        # CPU, not wall time: what a turn costs the server whatever else runs on the machine.
        cpu_ms = fig.server_cpu_s * 1000 / fig.ok
        print(f"    server CPU per turn (all threads, SDK included): {cpu_ms:.1f} ms")
    if fig.server_wakes is not None and fig.ok:
        # Each costs the machine's wake price (the report's first lines) on top of the work.
        print(
            f"    server wake-ups per turn (its threads' voluntary switches): "
            f"{fig.server_wakes / fig.ok:.1f}"
        )
    if fig.floor_cpu_ms is not None:
        # The same pacing, a request that does next to nothing: what is the machine's.
        print(
            f"    server CPU per draft read (a signed-in request with no model call): "
            f"{fig.floor_cpu_ms:.1f} ms"
        )
    for name, values in (
        ("server's own time", fig.own_ms),
        ("server total (incl. model)", fig.whole_ms),
        ("model time (recorded)", fig.model_ms),
        ("client time to last byte", fig.client_ms),
    ):
        if values:
            p50, p95 = percentile(values, 50), percentile(values, 95)
            print(f"    {name:28} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")


def report(
    *,
    phases: dict[str, Figures],
    students: int,
    think_s: float,
    pool: int = 0,
    processes: int = 1,
    in_class: bool = True,
    wake_us: tuple[float, float] | None = None,
    reference_us: tuple[float, float] | None = None,
) -> bool:
    database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    if os.environ.get("DATABASE_URL"):
        database += f" (connection pool: {pool})" if pool else " (no connection pool)"
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    # The rate windows a turn takes live in the site's cache: Redis as in production
    # when REDIS_URL is set (limits/rates.py), else the server process's memory.
    cache = "cache: Redis" if os.environ.get("REDIS_URL") else "cache: memory (REDIS_URL unset)"
    web = "one web process" if processes == 1 else f"{processes} web processes (uvicorn --workers)"
    work = "an assignment of their class" if in_class else "arguments of their own, no class"
    print(
        f"coach: {students} students ({work}), model latency 0, {web}, {database}, {cache}, "
        f"load average {load}"
    )
    if wake_us is not None:
        # Why a paced turn costs more than one back to back: benchmarks/wakes.py.
        print(
            f"  this machine: a thread's wake costs {wake_us[0]:.0f} µs of CPU after 100 ms "
            f"asleep, {wake_us[1]:.0f} µs after 1 ms"
        )
    if reference_us is not None:
        # How fast the machine is, and how much dearer work is when it comes alone.
        warm, alone = reference_us
        print(
            f"  this machine: a fixed piece of Python work costs {warm:.0f} µs of CPU back to "
            f"back, {alone:.0f} µs after 200 ms asleep ({alone / warm:.1f}x)"
        )
    print(
        "  server's own time = the request's time inside the server (handed to Django ->"
        " last body byte handed back)\n"
        "    minus the model time the coach recorded (CoachTurn.latency_ms: the llm call from"
        " request to end of stream,\n"
        "    including the SDK's stream handling and forwarding the deltas that arrive meanwhile)"
    )
    print(f"  paced: each student pauses {think_s:.1f} s (+-50%) between turns, as people do")
    print("  back-to-back: no pauses; latency there is queueing (students / turns per second)")
    for label, fig in phases.items():
        print_phase(label, fig)
    paced, saturated = phases["paced"], phases["back-to-back"]
    if not paced.own_ms:
        print("  no measured turns: MISS")
        return False
    # The server's own CPU and time are reported, not judged: what a student feels is the
    # felt phase's wall time beside the model's (report_felt), the goals kept.
    print(f"  capacity: {saturated.turns_per_s:.1f} turns/s with {students} students back-to-back")
    if paced.floor_cpu_ms is not None and saturated.floor_cpu_ms is not None:
        # A turn reads what a draft read does, stores, and calls the model: a reader can
        # tell how much of its CPU is the turn's own from how much any request costs here.
        print(
            f"  floor: a draft read costs the server {paced.floor_cpu_ms:.1f} ms of CPU paced, "
            f"{saturated.floor_cpu_ms:.1f} ms back to back"
        )
    return True


def report_felt(
    fig: Figures, *, model_ms: float, students: int, think_s: float, load: tuple[float, float]
) -> bool:
    """The felt phase's lines; True when both goals are met."""
    print(
        f"felt: {students} students, the model answering after {model_ms:.0f} ms, paced "
        f"({think_s:.1f} s +-50% between turns), load average {load[0]:.1f} at the start, "
        f"{load[1]:.1f} at the end"
    )
    print(f"  {fig.ok} turns ok, {fig.failed} failed")
    if fig.errors:
        print(f"    errors: {', '.join(fig.errors)}")
    if fig.server_cpu_s is not None and fig.ok:
        print(f"  server CPU per turn (all threads): {fig.server_cpu_s * 1000 / fig.ok:.1f} ms")
    for name, values in (
        ("turn's wall time (client)", fig.client_ms),
        ("server total (incl. model)", fig.whole_ms),
        ("model time (recorded)", fig.model_ms),
    ):
        if values:
            p50, p95 = percentile(values, 50), percentile(values, 95)
            print(f"    {name:28} p50 {p50:7.1f} ms   p95 {p95:7.1f} ms")
    if not fig.client_ms:
        print("  no measured turns: MISS")
        return False
    met = True
    for pct, over in ((50, GOAL_FELT_P50_OVER_MS), (95, GOAL_FELT_P95_OVER_MS)):
        got = percentile(fig.client_ms, pct)
        ok = got <= model_ms + over
        met = met and ok
        print(
            f"  goal: turn's wall time p{pct} <= model {model_ms:.0f} + {over:.0f} ms "
            f"(got {got:.1f}, +{got - model_ms:.1f}): {'met' if ok else 'MISSED'}"
        )
    return met


def read_timings(path: Path) -> dict[str, float]:
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {row["id"]: row["ms"] for row in rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=STUDENTS)
    quick = os.environ.get("BENCH_QUICK") == "1"  # `python -m benchmarks --quick`
    parser.add_argument(
        "--turns", type=int, default=3 if quick else TURNS, help="back-to-back turns each"
    )
    parser.add_argument(
        "--paced-turns", type=int, default=2 if quick else PACED_TURNS, help="paced turns each"
    )
    parser.add_argument("--think", type=float, default=THINK_S, help="seconds between paced turns")
    parser.add_argument(
        "--web-processes",
        type=int,
        default=int(os.environ.get("BENCH_WEB_PROCESSES", "1")),
        help="uvicorn worker processes (the goals are for one; set REDIS_URL with more, or "
        "each process keeps its own rate windows)",
    )
    parser.add_argument(
        "--outside-a-class",
        action="store_true",
        default=os.environ.get("BENCH_OUTSIDE_A_CLASS") == "1",
        help="arguments of the students' own, in no assignment (the turn reads no class rules); "
        "BENCH_OUTSIDE_A_CLASS=1 through `python -m benchmarks`",
    )
    parser.add_argument(
        "--model-ms",
        type=float,
        default=MODEL_MS,
        help="the felt phase's model time (0: no felt phase)",
    )
    # Called as main() by `python -m benchmarks`: the runner's argv is not ours.
    args = parser.parse_args(argv if argv is not None else [])

    wake_us = (wake_cost_us(idle_s=0.1, wakes=10), wake_cost_us(idle_s=0.001, wakes=200))
    reference_us = (
        reference_work_us(idle_s=0, runs=30 if quick else 300),
        reference_work_us(idle_s=0.2, runs=5 if quick else 15),
    )
    tmp = Path(tempfile.mkdtemp(prefix="bench-coach-"))
    prefix = f"bench-{uuid.uuid4().hex[:8]}-"
    fake = server = slow_fake = None
    env: dict[str, str] = {}
    try:
        fake, fake_url = start_fake_anthropic(tmp)
        env = bench_env(tmp=tmp, fake_url=fake_url)
        if env.get("DATABASE_URL"):
            # As docs/coach.md recommends for production: a connection pool larger than
            # the requests served at once (without one, every request connects anew).
            env.setdefault("DATABASE_POOL_SIZE", str(args.students + 10))
        manage(env, "migrate", "--noinput", "-v", "0")
        names = [f"{prefix}{index:02d}" for index in range(args.students)]
        students = create_students(
            env, names=names, prefix=prefix, in_class=not args.outside_a_class
        )
        port = free_port()
        server = start_server(env, port, processes=args.web_processes)
        asyncio.run(wait_until_up(port))
        runs = asyncio.run(
            run_students(
                students,
                port,
                server_pid=server.pid,
                paced_turns=args.paced_turns,
                turns=args.turns,
                think_s=args.think,
                floor_reads=(1, 5) if quick else (FLOOR_READS, FLOOR_BACK_TO_BACK_READS),
            )
        )
        stop(server)  # flushes and closes the timings log
        model_ms = json.loads(
            manage(env, "shell", "--no-imports", "-c", MODEL_TIMES.format(prefix=prefix))
        )
        timings = read_timings(tmp / "timings.jsonl")
        phases = {
            label: figures(run=run, timings=timings, model_ms=model_ms)
            for label, run in runs.items()
        }
        report(
            phases=phases,
            students=args.students,
            think_s=args.think,
            pool=int(env.get("DATABASE_POOL_SIZE") or 0),
            processes=args.web_processes,
            in_class=not args.outside_a_class,
            wake_us=wake_us,
            reference_us=reference_us,
        )
        if args.model_ms > 0:
            # The same students and database; a model that takes its time, a fresh server.
            slow_fake, slow_url = start_fake_anthropic(tmp, latency_ms=args.model_ms)
            felt_env = dict(env, ANTHROPIC_BASE_URL=slow_url)
            felt_env["BENCH_TIMINGS_PATH"] = str(tmp / "felt-timings.jsonl")
            port = free_port()
            server = start_server(felt_env, port, processes=args.web_processes)
            asyncio.run(wait_until_up(port))
            felt_run, load = asyncio.run(
                run_felt(
                    students,
                    port,
                    server_pid=server.pid,
                    turns=args.paced_turns,
                    think_s=args.think,
                )
            )
            stop(server)
            model_ms = json.loads(
                manage(env, "shell", "--no-imports", "-c", MODEL_TIMES.format(prefix=prefix))
            )
            phases["felt"] = figures(
                run=felt_run, timings=read_timings(tmp / "felt-timings.jsonl"), model_ms=model_ms
            )
            report_felt(
                phases["felt"],
                model_ms=args.model_ms,
                students=args.students,
                think_s=args.think,
                load=load,
            )
        # A missed speed target is reported, not failed (benchmarks/__init__.py);
        # a turn that did not end in a result is a wrong answer.
        return 1 if any(fig.failed for fig in phases.values()) else 0
    finally:
        for process in (server, fake, slow_fake):
            if process is not None:
                stop(process)
        if env.get("DATABASE_URL"):
            # A shared database keeps no benchmark students behind.
            manage(env, "shell", "--no-imports", "-c", CLEANUP.format(prefix=prefix))
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
