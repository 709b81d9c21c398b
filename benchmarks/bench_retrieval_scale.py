"""Benchmark: one case file's search does not slow, or change, as the site grows.

On PostgreSQL only (``DATABASE_URL``; skipped without it), in a fresh
interpreter on a test database made and dropped for the run: build the same
2,000-span case file as ``bench_retrieval`` (through ``casefiles.services``),
time ``retrieve_spans`` for a set of queries, then add 1,000,000 spans of 500
other case files, written by the database itself (``generate_series``, words
drawn from the same vocabulary with the same Zipf-like law, so the other case
files hold the queries' words too), with their word index
(``casefiles_searchterm``, one row per case file and word, as
``casefiles.search_index`` would keep it, counted here by the database from the
spans' stored vectors), and time the same queries again.

Each query is timed ``REPEATS`` times in each phase; a phase's p50 and p95 are
over every timing, and the ratio after/before is the median of each query's
ratio of medians (robust on a machine others are using). The CPU the database
process and the client spend per query (from ``/proc``, when the database runs
on this machine) says what a quiet machine would take. The ranking of every
query, keys and scores, must be the same before and after. Target: p95 < 10 ms
after the other spans. The load average (``/proc/loadavg``) is printed beside
each phase.

``--quick`` (or ``BENCH_QUICK=1``) times 50 queries and adds 200,000 spans.
Run alone: ``python -m benchmarks retrieval_scale``.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.bench_retrieval import SOURCES, SPANS, _paragraph, _vocabulary

__all__ = ["main", "run_child"]

ROOT = Path(__file__).resolve().parent.parent
OTHER_SPANS = 1_000_000
OTHER_CASE_FILES = 500
REPEATS = 3
WARM_UP = 20
TARGET_P95_MS = 10.0

# One source per other case file; each span 24 to 108 words (the bench case file's
# paragraphs hold 3-6 sentences of 8-18 words). exp(random() * ln(V)) picks rank r
# with density ~ 1/r, the law the case file's words are drawn with.
_OTHERS = """
WITH files AS (
    INSERT INTO casefiles_casefile
        (title, description, owner_id, visibility, is_demo, created_at, updated_at)
    SELECT 'Other ' || g, '', %(owner)s, 'private', false, now(), now()
    FROM generate_series(1, %(files)s) AS g
    RETURNING id
)
INSERT INTO casefiles_source
    (case_file_id, title, author, published, citation, kind, text, sha256, created_at,
     n_spans)
SELECT id, 'Other', '', '', '', 'pasted', '-', md5(id::text) || md5(id::text), now(),
       %(per_file)s
FROM files
"""
_OTHER_SPANS = """
INSERT INTO casefiles_span
    (case_file_id, source_id, ordinal, start, "end", text, search_text, n_words)
SELECT src.case_file_id, src.id, g, 0, 1, btrim(w.words), w.words, w.n
FROM casefiles_source src
CROSS JOIN generate_series(1, %(per_file)s) AS g
CROSS JOIN LATERAL (
    SELECT string_agg(' ' || (%(vocabulary)s::text[])[
               LEAST(%(size)s, floor(exp(random() * ln(%(size)s)))::int)
           ] || ' ', '') AS words,
           COUNT(*) AS n
    FROM generate_series(1, 24 + (random() * 84)::int + 0 * g)
) AS w
WHERE src.case_file_id <> %(mine)s
"""


# The other case files' word index (casefiles.postings: id * 2^24 + length * 2^12 + count),
# and the span count and id sum it was counted from (casefiles.models.SearchIndex).
_OTHER_INDEX = """
INSERT INTO casefiles_searchterm (case_file_id, term, df, postings)
SELECT p.case_file_id, p.term, COUNT(*), string_agg(p.code::text, ',')
FROM (
    SELECT s.case_file_id, u.lexeme AS term,
           s.id * 16777216 + s.n_words * 4096 + array_length(u.positions, 1) AS code
    FROM casefiles_span s CROSS JOIN LATERAL unnest(s.search_vector) AS u
    WHERE s.case_file_id <> %(mine)s
) AS p
GROUP BY p.case_file_id, p.term
"""
_OTHER_INDEX_STATE = """
INSERT INTO casefiles_searchindex (case_file_id, spans, id_sum)
SELECT case_file_id, COUNT(*), SUM(id) FROM casefiles_span
WHERE case_file_id <> %(mine)s GROUP BY case_file_id
"""


def _loadavg() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def _backend_cpu_seconds(connection) -> float | None:
    """CPU time the database server process serving us has used (None: not on this machine)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _time(retrieve, connection, case_file_id: int, queries: list[str]) -> dict:
    """Each query's timings (ms, ``REPEATS`` of them), its ranking, and the CPU spent per query."""
    for query in queries[:WARM_UP]:
        retrieve(query, case_file_id, 8)
    timings, rankings = [], []
    server, client = _backend_cpu_seconds(connection), time.process_time()
    for query in queries[WARM_UP:]:
        runs = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            hits = retrieve(query, case_file_id, 8)
            runs.append((time.perf_counter() - started) * 1000)
        timings.append(runs)
        rankings.append([(hit.key, hit.score) for hit in hits])
    calls = len(timings) * REPEATS
    after = _backend_cpu_seconds(connection)
    return {
        "timings": timings,
        "rankings": rankings,
        # CPU, unlike the clock, hardly grows with the machine's load: what a quiet machine takes.
        "server_cpu": None if server is None or after is None else (after - server) * 1000 / calls,
        "client_cpu": (time.process_time() - client) * 1000 / calls,
    }


def _summary(phase: dict) -> dict:
    flat = sorted(t for runs in phase["timings"] for t in runs)
    return {
        "p50": statistics.median(flat),
        "p95": flat[int(0.95 * (len(flat) - 1))],
        "server_cpu": phase["server_cpu"],
        "client_cpu": phase["client_cpu"],
    }


def _cpu(phase: dict) -> str:
    server = "?" if phase["server_cpu"] is None else f"{phase['server_cpu']:.2f}"
    return f"CPU per query: database {server} ms, client {phase['client_cpu']:.2f} ms"


def _child(n_queries: int, other_spans: int) -> dict:
    """Inside the fresh interpreter: build, time, grow the site, time again."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from casefiles import services
    from casefiles.models import Span
    from casefiles.retrieval import retrieve_spans

    if connection.vendor != "postgresql":
        raise SystemExit("this bench runs on PostgreSQL (DATABASE_URL)")
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(9)
        vocabulary = _vocabulary(rng)
        weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
        owner = get_user_model().objects.create_user("bench-retrieval-scale")
        case_file = services.create_case_file(owner=owner, title="Bench")
        per_source = SPANS // SOURCES
        for number in range(SOURCES):
            text = "\n\n".join(_paragraph(rng, vocabulary, weights) for _ in range(per_source))
            services.add_source(case_file=case_file, title=f"Source {number}", text=text)
        queries = [
            " ".join(rng.choices(vocabulary, weights, k=rng.randint(1, 6)))
            for _ in range(n_queries + WARM_UP)
        ]
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE casefiles_span")
            cursor.execute("ANALYZE casefiles_searchterm")
        load_before = _loadavg()
        before = _time(retrieve_spans, connection, case_file.pk, queries)

        started = time.perf_counter()
        with connection.cursor() as cursor:
            per_file = other_spans // OTHER_CASE_FILES
            # Each source's span count is kept on it (casefiles.services), as _OTHER_SPANS makes.
            cursor.execute(
                _OTHERS, {"owner": owner.pk, "files": OTHER_CASE_FILES, "per_file": per_file}
            )
            cursor.execute(
                _OTHER_SPANS,
                {
                    "per_file": per_file,
                    "vocabulary": vocabulary,
                    "size": len(vocabulary),
                    "mine": case_file.pk,
                },
            )
            cursor.execute(_OTHER_INDEX, {"mine": case_file.pk})
            cursor.execute(_OTHER_INDEX_STATE, {"mine": case_file.pk})
            for table in ("casefiles_span", "casefiles_searchterm", "casefiles_searchindex"):
                cursor.execute(f"VACUUM ANALYZE {table}")  # what autovacuum does soon after
        build_seconds = time.perf_counter() - started
        total = Span.objects.count()

        load_after = _loadavg()
        after = _time(retrieve_spans, connection, case_file.pk, queries)
        ratios = [
            statistics.median(a) / statistics.median(b)
            for a, b in zip(after["timings"], before["timings"], strict=True)
        ]
        ranked_before, ranked_after = before["rankings"], after["rankings"]
        return {
            "spans": Span.objects.filter(case_file=case_file).count(),
            "total": total,
            "build_seconds": build_seconds,
            "queries": len(ranked_before),
            "hits_per_query": sum(len(r) for r in ranked_before) / len(ranked_before),
            "before": {**_summary(before), "load": load_before},
            "after": {**_summary(after), "load": load_after},
            "median_ratio": statistics.median(ratios),
            "same_ranking": ranked_before == ranked_after,
            "changed": sum(a != b for a, b in zip(ranked_before, ranked_after, strict=True)),
        }
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run_child(
    n_queries: int, other_spans: int, *, env: dict[str, str], timeout: float = 1800
) -> subprocess.CompletedProcess:
    """`_child` in a fresh interpreter; its figures are the last line of its output (JSON)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.bench_retrieval_scale",
            "--child",
            str(n_queries),
            str(other_spans),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def main(argv: Sequence[str] | None = None) -> int:
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("  retrieval at scale: skipped (DATABASE_URL is not a PostgreSQL database)")
        return 0
    quick = bool(os.environ.get("BENCH_QUICK"))
    n_queries, other_spans = (50, 200_000) if quick else (200, OTHER_SPANS)
    env = dict(os.environ)
    env.setdefault("SECRET_KEY", "insecure-bench-only-key")
    result = run_child(n_queries, other_spans, env=env)
    if result.returncode != 0:
        print(result.stderr[-2000:])
        return 1
    run = json.loads(result.stdout.strip().splitlines()[-1])
    before, after = run["before"], run["after"]
    met = after["p95"] < TARGET_P95_MS and run["same_ranking"]
    print(
        f"  retrieve_spans PostgreSQL, a case file of {run['spans']} spans, {run['queries']} "
        f"queries x {REPEATS} ({run['hits_per_query']:.1f} hits each)"
    )
    print(
        f"    alone:                   p50 {before['p50']:6.2f} ms   p95 {before['p95']:6.2f} ms"
        f"   (load {before['load']}; {_cpu(before)})"
    )
    print(
        f"    among {run['total']:,} spans:  p50 {after['p50']:6.2f} ms   p95 {after['p95']:6.2f} ms"
        f"   (load {after['load']}; {_cpu(after)})"
    )
    print(f"    the other spans written in {run['build_seconds']:.0f} s")
    same = "yes" if run["same_ranking"] else f"NO ({run['changed']} queries differ)"
    print(
        f"    after/before, median of per-query ratios: {run['median_ratio']:.2f}; "
        f"same ranking: {same}"
        f"   (target p95 < {TARGET_P95_MS:.0f} ms and the same ranking: "
        f"{'ok' if met else 'MISS'})"
    )
    return 0 if met else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        print(json.dumps(_child(int(sys.argv[2]), int(sys.argv[3]))))
    else:
        raise SystemExit(main())
