"""Benchmark: a 3-round inquiry against a model with a fixed 200 ms latency.

Processes, as in production: the fake Anthropic server playing the scripted
inquiry model (tests/fakes/inquiry_model.py, the ``dissent`` scenario, which
runs three full rounds) with ``--latency-ms 200``, and a fresh interpreter with
Django on its own temporary SQLite file that creates the demo case file and
runs inquiries on the shared engine in process.

Reported: the number of model calls per round, and the wall time against the
critical path — the stages that ask the model, each at least one 200 ms
call deep (the code nodes: retrieval, stop check, Muḥāsabah, finalize, make
no call) — target ratio <= 1.15; and against the transport floor: the same
calls, stage after stage, made with the SDK alone against the same fake server
(goal <= 1.05x, reported). One warm-up inquiry is not counted.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench_debates import FAKE_KEY, ROOT, _start_fake_server, _stop, transport_floor

__all__ = ["main"]

LATENCY_MS = 200
ROUNDS = 3
RATIO_TARGET = 1.15
FLOOR_GOAL = 1.05  # reported, not failed


def _child(runs: int) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    import inquiries.services as services
    from casefiles.demo import load_demo_case_file
    from engine.models import Debate, LLMCall, StageRun
    from engine.orchestrator import run_debate

    services.launch = lambda debate_id: None  # this process runs the engine itself
    user = get_user_model().objects.create_user(f"bench-{time.time_ns()}", is_staff=True)
    case_file = load_demo_case_file(owner=user)
    measured = []
    for run in range(runs + 1):
        debate = services.create_inquiry(
            user=user,
            question=f"Should our city adopt congestion pricing? ({run})",
            case_file_id=case_file.pk,
            max_rounds=ROUNDS,
            budget_usd=Decimal("10"),
        )
        started = time.perf_counter()
        run_debate(debate_id=debate.pk)
        wall = time.perf_counter() - started
        debate = Debate.objects.get(pk=debate.pk)
        depth = StageRun.objects.filter(debate=debate, calls__gt=0).count()
        per_round = Counter(LLMCall.objects.filter(debate=debate).values_list("round", flat=True))
        if run == 0:
            continue
        measured.append(
            {
                "wall_s": wall,
                "depth": depth,
                "per_round": dict(sorted(per_round.items())),
                "status": debate.status,
                "stop": debate.stop_reason,
                "rounds": debate.rounds_completed,
            }
        )
    # The same calls, stage after stage, with the SDK and the fake server alone.
    fan_out = list(
        StageRun.objects.filter(debate=debate, calls__gt=0)
        .order_by("id")
        .values_list("calls", flat=True)
    )
    from inquiries.schemas import AgentReply

    floor = transport_floor(
        fan_out,
        runs,
        output_model=AgentReply,
        system="ROLE: advocate",
        content="NODE: advocate_opening ROUND: 1 ",
    )
    return {"runs": measured, "floor_s": floor}


def main(argv: Sequence[str] | None = None) -> int:
    runs = 1 if os.environ.get("BENCH_QUICK") == "1" else 3
    with tempfile.TemporaryDirectory(prefix="bench-inquiry-") as tmp:
        server, base_url = _start_fake_server(
            {**os.environ, "PYTHONPATH": str(ROOT)},
            responder="tests.fakes.inquiry_model:respond_dissent",
            latency_ms=LATENCY_MS,
        )
        try:
            env = {
                **os.environ,
                "SQLITE_PATH": str(Path(tmp) / "bench.sqlite3"),
                "ANTHROPIC_BASE_URL": base_url,
                "ANTHROPIC_API_KEY": FAKE_KEY,
                "SECRET_KEY": os.environ.get("SECRET_KEY") or "insecure-bench-only-key",
                "PYTHONPATH": str(ROOT),
                "LOG_LEVEL": "WARNING",
            }
            env.pop("DATABASE_URL", None)
            env.pop("REDIS_URL", None)
            env.pop("ANTHROPIC_AUTH_TOKEN", None)
            completed = subprocess.run(
                [sys.executable, "-m", "benchmarks.bench_inquiry", "--child", str(runs)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
        finally:
            _stop(server)
    lines = [x for x in completed.stdout.splitlines() if x.startswith("RESULT ")]
    if not lines:
        print(f"bench child failed:\n{completed.stdout[-2000:]}\n{completed.stderr[-4000:]}")
        return 1
    result = json.loads(lines[-1].removeprefix("RESULT "))
    ok = True
    print(
        f"inquiry: {ROUNDS} rounds, model latency {LATENCY_MS} ms, load average {os.getloadavg()[0]:.1f}"
    )
    for run in result["runs"]:
        bound = run["depth"] * LATENCY_MS / 1000
        ratio = run["wall_s"] / bound
        ok &= ratio <= RATIO_TARGET and run["status"] == "done"
        calls = ", ".join(f"round {r}: {n}" for r, n in run["per_round"].items())
        print(
            f"  run: {run['rounds']} rounds ({run['stop']}); model calls per round: {calls}; "
            f"critical path {run['depth']} stages x {LATENCY_MS} ms = {bound:.1f} s; "
            f"wall {run['wall_s']:.3f} s: ratio {ratio:.3f} (target <= {RATIO_TARGET})"
        )
    median = statistics.median(
        r["wall_s"] / (r["depth"] * LATENCY_MS / 1000) for r in result["runs"]
    )
    print(f"  median ratio {median:.3f} -> {'OK' if ok else 'MISS'}")
    floor = result["floor_s"]
    wall = statistics.median(r["wall_s"] for r in result["runs"])
    stages = statistics.median(r["depth"] for r in result["runs"])
    print(
        f"  transport floor (same calls stage after stage, SDK + fake server only): {floor:.3f} s; "
        f"median wall {wall:.3f} s = {wall / floor:.3f}x the floor (goal <= {FLOOR_GOAL}); "
        f"the inquiry's own overhead {(wall - floor) * 1000:.0f} ms in all, "
        f"{(wall - floor) * 1000 / stages:.0f} ms a stage that calls the model"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print("RESULT " + json.dumps(_child(int(sys.argv[2]))), flush=True)
    else:
        raise SystemExit(main())
