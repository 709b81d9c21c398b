"""benchmarks.bench_retrieval_scale, run small: the rows it writes with SQL of its own still
fit the schema (a column added without a database default once broke it unseen), and the
case file's ranking is the same before and after the others' spans."""

from __future__ import annotations

import json
import os
from urllib.parse import urlsplit, urlunsplit

import pytest

from benchmarks.bench_retrieval_scale import run_child

DATABASE_URL = os.environ.get("DATABASE_URL", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres"), reason="the bench runs on PostgreSQL only"
    ),
]

OTHER_SPANS = 2_000  # four spans for each of the bench's 500 other case files


def _named(url: str, name: str) -> str:
    # A database name of its own: the bench makes and drops "test_<name>", which must not be
    # the test database this session is using.
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def test_it_builds_the_other_case_files_and_keeps_the_ranking() -> None:
    env = dict(os.environ, DATABASE_URL=_named(DATABASE_URL, "argue_bench_scale_check"))
    env.setdefault("SECRET_KEY", "insecure-test-only-key")
    env.pop("DATABASE_POOL_SIZE", None)
    result = run_child(3, OTHER_SPANS, env=env, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    run = json.loads(result.stdout.strip().splitlines()[-1])
    assert run["total"] == run["spans"] + OTHER_SPANS
    assert run["queries"] == 3
    assert run["same_ranking"], run
