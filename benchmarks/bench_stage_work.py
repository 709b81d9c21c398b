"""Benchmark: the engine's own work per stage, with a model that answers at once.

For each format (graph debate 4 personas x 3 rounds, inquiry 3 rounds,
tournament of 4 models) the fake Anthropic server answers with no latency, in
its own process, and a fresh interpreter with Django on its own temporary
SQLite file runs the format on the engine in process, measuring every stage:

- *own work*: the stage's wall time minus the time its thread spent inside the
  call runner's event loop (the SDK, HTTP and the fake server: the transport,
  which the model's latency hides in production), plus the engine's work
  between stages (re-reading the run row); the claim, the start and the finish
  are shared out over the stages;
- its thread CPU time (the same share, CPU rather than wall: less sensitive to
  a loaded machine);
- the database queries it made (a stage's calls recorded in the ledger, its
  commit, its events, its ``StageRun``, the lease).

One warm-up run of each format is not counted. ``STAGE_PROFILE=<format>``
also prints a cProfile of that format's measured runs, the transport left in
(cumulative time, top 40 of the engine's and the formats' functions;
``STAGE_PROFILE_FILTER``, ``STAGE_PROFILE_TOP`` and ``STAGE_PROFILE_SORT`` change which,
how many and in which order; ``STAGE_PROFILE_DUMP=<file>`` also saves it for pstats).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench_debates import ROOT, _child_env, _start_fake_server, _stop

__all__ = ["FORMATS", "main"]

# format -> the fake model answering it (module:function)
FORMATS = {
    "graph": "tests.fakes.debate_model:respond",
    "inquiry": "tests.fakes.inquiry_model:respond_dissent",
    "tournament": "benchmarks.bench_tournament:respond",
}
OWN_MS_TARGET = 5.0
# STAGE_LATENCY_MS=200: the model answers after that long, as in the 200 ms benches. The
# same work then costs more CPU (caches gone cold while the stage waited): what the
# wall-time benches' overhead is made of.
LATENCY_MS = int(os.environ.get("STAGE_LATENCY_MS", "0"))


# --- the child process --------------------------------------------------------------
def _new_run(name: str, run: int) -> int:
    from decimal import Decimal

    if name == "graph":
        from benchmarks.bench_debates import PERSONAS, ROUNDS, _new_debate

        return _new_debate(personas=PERSONAS, rounds=ROUNDS)
    if name == "inquiry":
        from django.contrib.auth import get_user_model

        import inquiries.services as services
        from casefiles.demo import load_demo_case_file

        services.launch = lambda debate_id: None  # this process runs the engine itself
        user = get_user_model().objects.create_user(f"bench-{time.time_ns()}", is_staff=True)
        debate = services.create_inquiry(
            user=user,
            question=f"Should our city adopt congestion pricing? ({run})",
            case_file_id=load_demo_case_file(owner=user).pk,
            max_rounds=3,
            budget_usd=Decimal("10"),
        )
        return debate.pk
    from django.conf import settings

    from benchmarks.bench_tournament import MODELS
    from tournaments.services import create_tournament

    price = {"input": Decimal("1"), "output": Decimal("5")}
    settings.LLM_PRICES = {**settings.LLM_PRICES, **{m: price for m in MODELS}}
    settings.TOURNAMENT_SEMANTIC = ""  # the optional embeddings are their own bench's
    tournament = create_tournament(
        user=None,
        question=f"Which database for a 10,000-student course platform? ({run})",
        decision_type="database",
        models=MODELS,
        budget_usd=Decimal("10"),
        no_cache=True,
        launch_now=False,
    )
    return tournament.debate_id


class _Meter:
    """Wall, thread CPU, event-loop time and queries, per stage and per run."""

    def __init__(self) -> None:
        self.queries = 0
        self.loop_wall = 0.0
        self.loop_cpu = 0.0
        self.stages: list[dict] = []

    def count(self, execute, sql, params, many, context):
        self.queries += 1
        return execute(sql, params, many, context)

    def snapshot(self) -> tuple[float, float, float, float, int]:
        return (
            time.perf_counter(),
            time.thread_time(),
            self.loop_wall,
            self.loop_cpu,
            self.queries,
        )


def _instrument(meter: _Meter) -> None:
    """Wrap the engine's stage runner and the call runner's event loop (this process only)."""
    from engine import calls, orchestrator

    ensure = calls.CallRunner._ensure_client

    def ensure_client(self):
        loop = ensure(self)
        if not getattr(loop, "_bench_timed", False):
            run = loop.run_until_complete

            def timed(future):
                wall, cpu = time.perf_counter(), time.thread_time()
                try:
                    return run(future)
                finally:
                    meter.loop_wall += time.perf_counter() - wall
                    meter.loop_cpu += time.thread_time() - cpu

            loop.run_until_complete = timed
            loop._bench_timed = True
        return loop

    calls.CallRunner._ensure_client = ensure_client
    run_stage = orchestrator._Run.run_stage

    def measured(self, fmt, debate, name, round, state):
        before = meter.snapshot()
        try:
            return run_stage(self, fmt, debate, name, round, state)
        finally:
            after = meter.snapshot()
            meter.stages.append(
                {"name": name, "delta": [b - a for a, b in zip(before, after, strict=True)]}
            )

    orchestrator._Run.run_stage = measured


def _figures(meter: _Meter, whole: list[float]) -> dict:
    """A run's stages: each one's own wall/CPU/queries, the run's rest shared out."""
    stages = meter.stages
    own_wall = [d[0] - d[2] for d in (s["delta"] for s in stages)]
    own_cpu = [d[1] - d[3] for d in (s["delta"] for s in stages)]
    queries = [s["delta"][4] for s in stages]
    run_wall, run_cpu, loop_wall, loop_cpu, run_queries = whole
    n = len(stages)
    return {
        "stages": n,
        "stage_own_ms": [x * 1000 for x in own_wall],
        "stage_cpu_ms": [x * 1000 for x in own_cpu],
        "stage_queries": queries,
        # Everything the run did besides the transport, per stage.
        "run_own_ms_per_stage": (run_wall - loop_wall) * 1000 / n,
        "run_cpu_ms_per_stage": (run_cpu - loop_cpu) * 1000 / n,
        "run_queries_per_stage": run_queries / n,
        "transport_ms_per_stage": loop_wall * 1000 / n,
    }


def _child(name: str, runs: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.db import connection

    from config.heap import settle

    # As the processes that run stages do once started: the web process, whose thread
    # runs them without Redis, and a Celery worker's (config/asgi.py, config/celery.py).
    settle()

    from engine.models import Debate
    from engine.orchestrator import run_debate

    meter = _Meter()
    _instrument(meter)
    profile = None
    if os.environ.get("STAGE_PROFILE") == name:
        import cProfile

        profile = cProfile.Profile()
    measured = []
    for run in range(runs + 1):
        debate_id = _new_run(name, run)
        meter.stages = []
        with connection.execute_wrapper(meter.count):
            before = meter.snapshot()
            if profile is not None and run:
                profile.enable()
            run_debate(debate_id=debate_id)
            if profile is not None and run:
                profile.disable()
            after = meter.snapshot()
        status = Debate.objects.values_list("status", flat=True).get(pk=debate_id)
        if run == 0:
            continue  # warm-up
        figures = _figures(meter, [b - a for a, b in zip(before, after, strict=True)])
        measured.append({**figures, "status": status})
    if profile is not None:
        import io
        import pstats

        if os.environ.get("STAGE_PROFILE_DUMP"):
            profile.dump_stats(os.environ["STAGE_PROFILE_DUMP"])
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).sort_stats(
            os.environ.get("STAGE_PROFILE_SORT", "cumulative")
        )
        stats.print_stats(
            os.environ.get("STAGE_PROFILE_FILTER")
            or r"(engine|debates|inquiries|tournaments|llm|django/db)/",
            int(os.environ.get("STAGE_PROFILE_TOP", 40)),
        )
        print(out.getvalue(), file=sys.stderr, flush=True)
    return {"runs": measured}


def _run_format(name: str, runs: int, tmp: Path) -> dict:
    server, base_url = _start_fake_server(
        {**os.environ, "PYTHONPATH": str(ROOT)}, responder=FORMATS[name], latency_ms=LATENCY_MS
    )
    try:
        env = _child_env(sqlite_path=tmp / f"{name}.sqlite3", base_url=base_url)
        env.pop("REDIS_URL", None)
        completed = subprocess.run(
            [sys.executable, "-m", "benchmarks.bench_stage_work", "--child", name, str(runs)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        _stop(server)
    if os.environ.get("STAGE_PROFILE") == name:
        print(completed.stderr[-20000:])
    for line in completed.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line.removeprefix("RESULT "))
    raise RuntimeError(
        f"bench child failed:\n{completed.stdout[-2000:]}\n{completed.stderr[-4000:]}"
    )


def _report(name: str, result: dict) -> bool:
    runs = result["runs"]
    own = statistics.median(x for r in runs for x in r["stage_own_ms"])
    cpu = statistics.median(x for r in runs for x in r["stage_cpu_ms"])
    queries = statistics.median(x for r in runs for x in r["stage_queries"])
    per_run_own = statistics.median(r["run_own_ms_per_stage"] for r in runs)
    per_run_cpu = statistics.median(r["run_cpu_ms_per_stage"] for r in runs)
    per_run_queries = statistics.median(r["run_queries_per_stage"] for r in runs)
    transport = statistics.median(r["transport_ms_per_stage"] for r in runs)
    ok = per_run_own <= OWN_MS_TARGET and all(r["status"] == "done" for r in runs)
    print(
        f"  {name}: {runs[0]['stages']} stages; per stage, median: own work {own:.1f} ms "
        f"(CPU {cpu:.1f} ms), {queries:g} queries; the whole run's own work shared out: "
        f"{per_run_own:.1f} ms (CPU {per_run_cpu:.1f} ms), {per_run_queries:.1f} queries; "
        f"transport {transport:.1f} ms (target own <= {OWN_MS_TARGET:g} ms: "
        f"{'OK' if ok else 'MISS'})"
    )
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    runs = 1 if os.environ.get("BENCH_QUICK") == "1" else 3
    answering = f"answering after {LATENCY_MS} ms" if LATENCY_MS else "answering at once"
    print(f"engine's own work per stage, model {answering}, load average {_load()}")
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-stage-work-") as tmp:
        for name in FORMATS:
            ok &= _report(name, _run_format(name, runs, Path(tmp)))
    print(f"  load average after: {_load()}")
    return 0 if ok else 1


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print("RESULT " + json.dumps(_child(sys.argv[2], int(sys.argv[3]))), flush=True)
    else:
        raise SystemExit(main())
