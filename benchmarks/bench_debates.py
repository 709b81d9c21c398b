"""Benchmark: a debate against a model with a fixed 200 ms latency.

Processes, as in production: the fake Anthropic server playing the scripted
debate model (tests/fakes/debate_model.py) with ``--latency-ms 200``; a
fresh interpreter with Django on its own temporary SQLite file (so nothing
touches your database) that runs debates; and, for throughput, real Celery
workers on Redis sharing that file.

1. One debate, 4 personas x 3 rounds, run by the orchestrator in process:
   the number of model calls (target <= 20 = 1 + P + R(P+1)) and the wall
   time against the sequential-depth bound: (2 + 2R) stages x 200 ms = 1.6 s
   (target ratio <= 1.15). One warm-up debate is run first and not counted
   (imports, first connections), as a long-running worker would be warm.
2. Throughput: 4 debates enqueued at once, run by one Celery worker versus
   two (each worker ``-c 1``: one debate at a time). Needs Redis: REDIS_URL,
   or else Redis's default local address is tried; when neither answers this
   part says why it is skipped. Queues are named per run, so the bench never
   takes another worker's tasks nor leaves its own behind.
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
LATENCY_MS = 200
PERSONAS = 4
ROUNDS = 3
CALLS_TARGET = 20
RATIO_TARGET = 1.15
THROUGHPUT_DEBATES = 4
FAKE_KEY = "sk-ant-fake-bench-key"
# Redis's own default address: `make bench` on a machine running Redis measures
# throughput without anyone having to remember REDIS_URL. Its last database, not 0:
# the test suite's workers use 0, 1, ... and a bench beside them must not share
# their queues or their events' channels.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"


def _start_fake_server(
    env: dict[str, str],
    *,
    responder: str = "tests.fakes.debate_model:respond",
    latency_ms: int = LATENCY_MS,
) -> tuple[subprocess.Popen, str]:
    """The fake Anthropic server in a process of its own, and its base URL (every bench's)."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.fakes.anthropic_server",
            "--port",
            "0",
            "--latency-ms",
            str(latency_ms),
            "--responder",
            responder,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+", line)
    if not match:
        process.kill()
        raise RuntimeError(f"fake server did not start: {line!r}")
    return process, match.group(0)


def _stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def _child_env(*, sqlite_path: Path, base_url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "SQLITE_PATH": str(sqlite_path),
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": FAKE_KEY,
        "SECRET_KEY": os.environ.get("SECRET_KEY") or "insecure-bench-only-key",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DATABASE_URL", None)  # the bench's own SQLite file, never your database
    env.pop("ANTHROPIC_AUTH_TOKEN", None)
    return env


# --- the child process: Django on the bench's database ---------------------------
def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def _new_debate(*, personas: int, rounds: int) -> int:
    from decimal import Decimal

    from engine.models import Debate, Persona

    debate = Debate.objects.create(
        topic="Cities should ban private cars from their centres",
        max_rounds=rounds,
        budget_usd=Decimal("10"),
    )
    debate.personas.set(Persona.objects.order_by("id")[:personas])
    return debate.id


def _single_debate(runs: int) -> dict:
    from engine.models import Debate, LLMCall, StageRun
    from engine.orchestrator import run_debate

    measured = []
    for run in range(runs + 1):
        debate_id = _new_debate(personas=PERSONAS, rounds=ROUNDS)
        started = time.perf_counter()
        run_debate(debate_id=debate_id)
        wall = time.perf_counter() - started
        debate = Debate.objects.get(pk=debate_id)
        depth = StageRun.objects.filter(debate=debate, calls__gt=0).count()
        calls = LLMCall.objects.filter(debate=debate).count()
        if run == 0:
            continue  # warm-up
        measured.append(
            {
                "wall_s": wall,
                "calls": calls,
                "depth": depth,
                "status": debate.status,
                "stop_reason": debate.stop_reason,
            }
        )
    return {"runs": measured, "floor_s": _transport_floor(runs)}


def _transport_floor(runs: int) -> float:
    """The debate's fan-out (1, P, then P and 1 per round) with the SDK alone."""
    from debates.schemas import TopicDecomposition

    return transport_floor(
        [1, PERSONAS] + [PERSONAS, 1] * ROUNDS,
        runs,
        output_model=TopicDecomposition,
        system="You are the moderator of a structured debate.",
        content="Debate topic: t",
    )


def transport_floor(
    fan_out: Sequence[int], runs: int, *, output_model: type, system: str, content: str
) -> float:
    """Median time of a run's fan-out (calls at once, stage after stage) with the SDK alone.

    No database, no prompts, no ledger: what the model's latency plus the SDK,
    HTTP and the fake server cost on this machine right now. The gap between
    a run's wall time and this floor is the product's own overhead.
    """
    import asyncio

    from django.conf import settings

    from llm import LLMRequest, acall_structured, make_async_client

    async def one_run(client, run: int) -> float:
        started = time.perf_counter()
        for stage, width in enumerate(fan_out):
            await asyncio.gather(
                *(
                    acall_structured(
                        client=client,
                        request=LLMRequest(
                            model=settings.CHEAP_MODEL,
                            system=system,
                            messages=[{"role": "user", "content": f"{content}{run}.{stage}.{i}"}],
                            output_model=output_model,
                            max_tokens=600,
                            prices=settings.LLM_PRICES,
                        ),
                    )
                    for i in range(width)
                )
            )
        return time.perf_counter() - started

    async def measure() -> list[float]:
        client = make_async_client(timeout=30, max_retries=0)
        try:
            return [await one_run(client, run) for run in range(runs + 1)][1:]
        finally:
            await client.close()

    return statistics.median(asyncio.run(measure()))


def _throughput(queue: str, workers: int) -> dict:
    from config.celery import app
    from engine.models import Debate
    from engine.tasks import run

    ids = [_new_debate(personas=PERSONAS, rounds=ROUNDS) for _ in range(THROUGHPUT_DEBATES)]
    started = time.perf_counter()
    for debate_id in ids:
        run.apply_async((debate_id,), queue=queue)
    deadline = started + 300
    while time.perf_counter() < deadline:
        if Debate.objects.filter(pk__in=ids, finished_at__isnull=False).count() == len(ids):
            break
        time.sleep(0.05)
    wall = time.perf_counter() - started
    done = Debate.objects.filter(pk__in=ids, status="done").count()
    app.pool.force_close_all()
    return {"workers": workers, "wall_s": wall, "done": done, "debates": len(ids)}


def _child(args: Sequence[str]) -> int:
    _setup_django()
    if args[0] == "single":
        result = _single_debate(int(args[1]))
    else:
        result = _throughput(args[1], int(args[2]))
    print("RESULT " + json.dumps(result), flush=True)
    return 0


def _run_child(env: dict[str, str], *args: str) -> dict:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_debates", "--child", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    for line in completed.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line.removeprefix("RESULT "))
    raise RuntimeError(
        f"bench child failed:\n{completed.stdout[-2000:]}\n{completed.stderr[-4000:]}"
    )


# --- Celery workers for the throughput part ---------------------------------------
def _start_worker(env: dict[str, str], queue: str, number: int, logs: Path) -> subprocess.Popen:
    log = logs / f"worker-{number}.log"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue,
            "-c",
            "1",
            "-n",
            f"{queue}-{number}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-l",
            "info",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if " ready." in log.read_text():
            return process
        if process.poll() is not None:
            break
        time.sleep(0.1)
    _stop(process, signal.SIGKILL)
    raise RuntimeError(f"celery worker {number} did not start:\n{log.read_text()[-2000:]}")


def _reachable_redis() -> tuple[str, str]:
    """(url, "") for a Redis that answers PING, else ("", why it cannot be used)."""
    import redis

    url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, OSError, ValueError) as error:
        origin = "REDIS_URL" if os.environ.get("REDIS_URL") else "no REDIS_URL, and the default"
        return "", f"{origin} {_shown(url)} does not answer ({type(error).__name__})"
    return url, ""


def _shown(url: str) -> str:
    """The URL without its credentials, fit to print."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}{parts.path}"


def _throughput_with(env: dict[str, str], workers: int, logs: Path) -> dict:
    queue = f"bench-debates-{uuid.uuid4().hex[:8]}"
    processes = [_start_worker(env, queue, n + 1, logs) for n in range(workers)]
    try:
        return _run_child(env, "throughput", queue, str(workers))
    finally:
        for process in processes:
            _stop(process, signal.SIGQUIT)


def _report_single(result: dict) -> bool:
    bound = (2 + 2 * ROUNDS) * LATENCY_MS / 1000
    runs = result["runs"]
    ok = True
    print(
        f"debates: {PERSONAS} personas x {ROUNDS} rounds, model latency {LATENCY_MS} ms, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for run in runs:
        ratio = run["wall_s"] / (run["depth"] * LATENCY_MS / 1000)
        ok &= run["calls"] <= CALLS_TARGET and ratio <= RATIO_TARGET and run["status"] == "done"
        print(
            f"  run: {run['calls']} calls (target <= {CALLS_TARGET}), depth {run['depth']} "
            f"stages, wall {run['wall_s']:.3f} s vs bound {run['depth']} x {LATENCY_MS} ms = "
            f"{run['depth'] * LATENCY_MS / 1000:.1f} s: ratio {ratio:.3f} "
            f"(target <= {RATIO_TARGET}); stop {run['stop_reason']}"
        )
    median = statistics.median(r["wall_s"] for r in runs)
    floor = result["floor_s"]
    print(
        f"  median wall {median:.3f} s against the full-depth bound {bound:.1f} s: "
        f"ratio {median / bound:.3f} -> {'OK' if ok else 'MISS'}"
    )
    print(
        f"  transport floor (same fan-out, SDK + fake server only): {floor:.3f} s = "
        f"ratio {floor / bound:.3f}; the debate's own overhead: "
        f"{(median - floor) * 1000:.0f} ms in all, {(median - floor) * 1000 / (2 + 2 * ROUNDS):.0f} "
        "ms per stage"
    )
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    quick = os.environ.get("BENCH_QUICK") == "1"
    runs = 1 if quick else 3
    with tempfile.TemporaryDirectory(prefix="bench-debates-") as tmp:
        tmp_path = Path(tmp)
        server_env = {**os.environ, "PYTHONPATH": str(ROOT)}
        server, base_url = _start_fake_server(server_env)
        try:
            env = _child_env(sqlite_path=tmp_path / "bench.sqlite3", base_url=base_url)
            ok = _report_single(_run_child(env, "single", str(runs)))
            redis_url, why_not = _reachable_redis()
            if not redis_url:
                print(f"  throughput: skipped ({why_not}; it needs Celery workers on Redis)")
                return 0 if ok else 1
            env["REDIS_URL"] = redis_url
            print(f"  throughput: Celery workers on {_shown(redis_url)}")
            figures = [_throughput_with(env, workers, tmp_path) for workers in (1, 2)]
            for figure in figures:
                rate = figure["done"] / figure["wall_s"] * 60
                print(
                    f"  throughput: {figure['debates']} debates at once, {figure['workers']} "
                    f"worker(s) (-c 1): {figure['done']} done in {figure['wall_s']:.2f} s = "
                    f"{rate:.1f} debates/min"
                )
            speedup = figures[0]["wall_s"] / figures[1]["wall_s"]
            print(f"  two workers vs one: {speedup:.2f}x")
        finally:
            _stop(server)
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        raise SystemExit(_child(sys.argv[2:]))
    raise SystemExit(main())
