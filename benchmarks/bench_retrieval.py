"""Benchmark: ``casefiles.retrieval.retrieve_spans`` over a case file of 2,000 spans.

A fresh interpreter per database builds one case file of 2,000 spans (40
sources of 50 paragraphs, words drawn with a Zipf-like law from a 3,000-word
vocabulary, seeded, so every run searches the same text), then times 400
queries of one to six words (the warm-up queries are not counted) and prints
p50 and p95. Target: p95 < 20 ms on SQLite. SQLite runs on a temporary file,
never your database; PostgreSQL runs too when ``DATABASE_URL`` is set, on a
test database made and dropped for the run (as pytest-django does).

``--quick`` (or ``BENCH_QUICK=1``) times 100 queries instead of 400.
Run alone: ``python -m benchmarks retrieval``.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]

ROOT = Path(__file__).resolve().parent.parent
SPANS = 2000
SOURCES = 40
VOCABULARY = 3000
TARGET_P95_MS = 20.0
WARM_UP = 20


def _vocabulary(rng: random.Random) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyzáéíóúñ"
    words: set[str] = set()
    while len(words) < VOCABULARY:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 11))))
    return sorted(words)


def _paragraph(rng: random.Random, vocabulary: list[str], weights: list[float]) -> str:
    sentences = []
    for _ in range(rng.randint(3, 6)):
        picked = rng.choices(vocabulary, weights, k=rng.randint(8, 18))
        sentences.append(" ".join(picked).capitalize() + rng.choice([".", ".", "?", ";"]))
    return " ".join(sentences)


def _child(queries: int) -> dict:
    """Inside the fresh interpreter: build the case file, time the queries."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    from casefiles import services
    from casefiles.models import Span
    from casefiles.retrieval import retrieve_spans

    old_name = None
    if connection.vendor == "postgresql":
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
    else:
        call_command("migrate", verbosity=0)
    try:
        rng = random.Random(9)
        vocabulary = _vocabulary(rng)
        weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
        owner = get_user_model().objects.create_user("bench-retrieval")
        case_file = services.create_case_file(owner=owner, title="Bench")
        per_source = SPANS // SOURCES
        for number in range(SOURCES):
            text = "\n\n".join(_paragraph(rng, vocabulary, weights) for _ in range(per_source))
            services.add_source(case_file=case_file, title=f"Source {number}", text=text)
        spans = Span.objects.filter(case_file=case_file).count()
        asked = [
            " ".join(rng.choices(vocabulary, weights, k=rng.randint(1, 6)))
            for _ in range(queries + WARM_UP)
        ]
        timings, hits = [], 0
        for index, query in enumerate(asked):
            started = time.perf_counter()
            found = retrieve_spans(query, case_file.pk, 8)
            elapsed = (time.perf_counter() - started) * 1000
            if index >= WARM_UP:
                timings.append(elapsed)
                hits += len(found)
        timings.sort()
        return {
            "database": "PostgreSQL" if connection.vendor == "postgresql" else "SQLite",
            "spans": spans,
            "queries": len(timings),
            "hits_per_query": hits / len(timings),
            "p50": statistics.median(timings),
            "p95": timings[int(0.95 * (len(timings) - 1))],
        }
    finally:
        if old_name is not None:
            connection.creation.destroy_test_db(old_name, verbosity=0)


def _run(env: dict[str, str], queries: int) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_retrieval", "--child", str(queries)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    queries = 100 if os.environ.get("BENCH_QUICK") else 400
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", "insecure-bench-only-key")
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        sqlite_env = {k: v for k, v in env.items() if k != "DATABASE_URL"}
        sqlite_env["SQLITE_PATH"] = str(Path(tmp) / "bench.sqlite3")
        runs.append(_run(sqlite_env, queries))
    if env.get("DATABASE_URL"):
        runs.append(_run(env, queries))
    else:
        print("  PostgreSQL: skipped (DATABASE_URL is not set)")
    status = 0
    for run in runs:
        if run["database"] == "SQLite":
            verdict = "ok" if run["p95"] < TARGET_P95_MS else "MISS"
            target = f"(target p95 < {TARGET_P95_MS:.0f} ms: {verdict})"
            status = max(status, int(verdict == "MISS"))
        else:
            target = "(no target: measured for comparison)"
        print(
            f"  retrieve_spans {run['database']:10} {run['spans']} spans, {run['queries']} queries "
            f"({run['hits_per_query']:.1f} hits each): p50 {run['p50']:6.2f} ms   "
            f"p95 {run['p95']:6.2f} ms   {target}"
        )
    return status


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]))))
    else:
        raise SystemExit(main())
