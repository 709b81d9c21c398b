"""Speed of the Dung solver, and whether its answers match the ICCMA reference.

Rows, in order:

1. ``GR`` on uniform random frameworks of growing size, up to 1,000,000 attacks
   (target < 2 s each; only the grounded computation is timed, not building the AF).
2. ``GR+PR+ST+LAB``: grounded extension, all preferred and all stable extensions and
   the grounded labelling together on a debate-sized random graph (300 arguments,
   1,000 attacks); the MEDIAN of 21 runs (target < 20 ms).
3. ``DC-CO``, ``DS-PR``, ``SE-PR``, ``SE-ST`` on every ICCMA'23-format framework of the
   shared sample with at most 10,000 arguments (target < 20 s each), then ``EE-PR`` and
   ``CE-PR`` where ``extension_counts.csv`` knows the number of preferred extensions.
   Each runs in its own interpreter (killed past 60 s: ``TIMEOUT``), so one hard
   instance cannot hang the benchmark; only the solver call is timed, not parsing.

The ``ref`` column says whether the answer matches the reference (``ok``,
``MISMATCH``, or ``—`` where the reference has none); a witness the package's own
checkers reject also counts as a mismatch. ``main()`` returns 1 on any mismatch.
``--quick`` (or ``BENCH_QUICK=1``) stops the random sizes at 100,000 attacks, runs 5
debate repetitions, only ICCMA frameworks of at most 200 arguments, and kills a task
at its 20 s target instead of at 60 s (about half a minute in all).

Run alone: ``python -m benchmarks solver`` or ``python -m benchmarks.bench_solver``.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from argumentation import (
    ArgumentationFramework,
    count_extensions,
    credulous_acceptance,
    extensions,
    grounded_extension,
    grounded_labelling,
    is_admissible,
    is_complete,
    is_stable,
    skeptical_acceptance,
    some_extension,
)
from argumentation.formats import read_framework
from tests.argumentation.iccma_data import (
    REPO_ROOT,
    af_files,
    extension_counts,
    iccma_dir,
    mutoksia_answers,
)

__all__ = ["main"]

TIMEOUT_S = 60.0
ICCMA_TARGET_S = 20.0
GROUNDED_TARGET_S = 2.0
DEBATE_TARGET_S = 0.020
ICCMA_MAX_ARGUMENTS = 10_000
QUICK_MAX_ARGUMENTS = 200
RANDOM_ATTACKS = (1_000, 10_000, 100_000, 1_000_000)
DEBATE_ARGUMENTS, DEBATE_ATTACKS = 300, 1_000
NO_VALUE = "—"


@dataclass(frozen=True, slots=True)
class Row:
    task: str
    instance: str
    arguments: int
    attacks: int
    extensions: str
    seconds: float | None  # None: timed out or crashed, see ``failure``
    target: float | None = None
    ref: str = NO_VALUE
    note: str = ""
    failure: str = "TIMEOUT"

    @property
    def verdict(self) -> str:
        if self.target is None:
            return NO_VALUE
        return "PASS" if self.seconds is not None and self.seconds < self.target else "MISS"


_COLUMNS = (
    ("task", 12, "<"),
    ("instance", 52, "<"),
    ("arguments", 9, ">"),
    ("attacks", 9, ">"),
    ("extensions", 10, ">"),
    ("seconds", 9, ">"),
    ("target", 8, ">"),
    ("status", 6, "<"),
    ("ref", 8, "<"),
    ("note", 0, "<"),
)


def _print_row(values: Sequence[str]) -> None:
    cells = [
        f"{value:{align}{width}}" for value, (_, width, align) in zip(values, _COLUMNS, strict=True)
    ]
    print("  ".join(cells).rstrip(), flush=True)


def _show(row: Row) -> Row:
    seconds = row.failure if row.seconds is None else f"{row.seconds:.3f}"
    target = NO_VALUE if row.target is None else f"<{row.target:g}"
    _print_row(
        (
            row.task,
            row.instance,
            f"{row.arguments:,}",
            f"{row.attacks:,}",
            row.extensions,
            seconds,
            target,
            row.verdict,
            row.ref,
            row.note,
        )
    )
    return row


# --- random frameworks ----------------------------------------------------------------------


def random_framework(*, arguments: int, attacks: int, seed: int) -> ArgumentationFramework:
    """Uniform random attacks without self-attacks (duplicates dropped)."""
    rng = random.Random(seed)
    pick = rng.randrange
    pairs = set()
    while len(pairs) < attacks:
        source, target = pick(arguments), pick(arguments)
        if source != target:
            pairs.add((source, target))
    return ArgumentationFramework(arguments=range(arguments), attacks=pairs)


def grounded_rows(*, quick: bool) -> list[Row]:
    rows = []
    for attacks in RANDOM_ATTACKS[:-1] if quick else RANDOM_ATTACKS:
        # Average in-degree 2: about e^-2 of the arguments are unattacked, so the
        # labelling propagates through a large part of the graph rather than stopping.
        arguments = attacks // 2
        af = random_framework(arguments=arguments, attacks=attacks, seed=attacks)
        start = time.perf_counter()
        extension = grounded_extension(af)
        seconds = time.perf_counter() - start
        rows.append(
            _show(
                Row(
                    "GR",
                    f"random n={arguments:,} m={attacks:,}",
                    arguments,
                    attacks,
                    "1",
                    seconds,
                    GROUNDED_TARGET_S,
                    note=f"|grounded|={len(extension):,}",
                )
            )
        )
    return rows


def debate_row(*, quick: bool) -> Row:
    runs = 5 if quick else 21
    timings, preferred, stable = [], 0, 0
    for _ in range(runs):
        # A fresh framework each run so that nothing cached on it is reused.
        af = random_framework(arguments=DEBATE_ARGUMENTS, attacks=DEBATE_ATTACKS, seed=7)
        start = time.perf_counter()
        grounded_extension(af)
        grounded_labelling(af)
        preferred = sum(1 for _ in extensions(af, "PR"))
        stable = sum(1 for _ in extensions(af, "ST"))
        timings.append(time.perf_counter() - start)
    return _show(
        Row(
            "GR+PR+ST+LAB",
            f"random debate n={DEBATE_ARGUMENTS} m={DEBATE_ATTACKS:,}",
            DEBATE_ARGUMENTS,
            DEBATE_ATTACKS,
            f"{preferred}/{stable}",
            statistics.median(timings),
            DEBATE_TARGET_S,
            note=f"median of {runs}; extensions = preferred/stable",
        )
    )


# --- ICCMA sample, one subprocess per task --------------------------------------------------


def _worker(task: str, path: str, query: str | None) -> dict:
    """Solve one task on one file in this process; the result as JSON-able data."""
    af = read_framework(path)
    kind, semantics = task.split("-")
    argument = None if query is None else int(query)
    start = time.perf_counter()
    witness = None
    count = None
    if kind == "DC":
        result = credulous_acceptance(af, argument, semantics)
        answer, witness = ("YES" if result.accepted else "NO"), result.witness
    elif kind == "DS":
        result = skeptical_acceptance(af, argument, semantics)
        answer, witness = ("YES" if result.accepted else "NO"), result.witness
    elif kind == "SE":
        witness = some_extension(af, semantics)
        answer = "NONE" if witness is None else "EXT"
    elif kind == "EE":
        count = sum(1 for _ in extensions(af, semantics))
        answer = str(count)
    else:
        count = count_extensions(af, semantics)
        answer = str(count)
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "answer": answer,
        "count": count,
        "witness_ok": None if witness is None else _witness_ok(af, witness, task, argument),
    }


def _witness_ok(af: ArgumentationFramework, witness: frozenset, task: str, query) -> bool:
    kind, semantics = task.split("-")
    valid = is_stable(af, witness) if semantics == "ST" else is_complete(af, witness)
    if kind == "DC":
        valid = valid and query in witness
    if kind == "DS":
        valid = valid and query not in witness
    return valid and is_admissible(af, witness)


def _in_subprocess(task: str, path: Path, query: str | None, *, timeout: float) -> dict | None:
    command = [sys.executable, "-m", "benchmarks.bench_solver", "--worker", task, str(path)]
    if query is not None:
        command.append(query)
    try:
        done = subprocess.run(
            command, cwd=REPO_ROOT, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": tail}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _reference(task: str, instance: str) -> str | None:
    """The reference answer in the worker's vocabulary, or None when there is none."""
    if task in ("EE-PR", "CE-PR"):
        known = extension_counts().get(instance, {}).get("PR")
        return None if known is None else str(known)
    row = mutoksia_answers()[instance]
    if task == "SE-ST":
        return {"YES": "EXT", "NO": "NONE"}.get(row["stable_exists"])
    if task == "SE-PR":
        return "EXT" if row["SE-PR_solved"] == "EXT" else None
    return row[task] if row[task] in ("YES", "NO") else None


def iccma_row(task: str, path: Path, *, target: float | None, timeout: float) -> Row:
    info = mutoksia_answers()[path.name]
    query = info["query"] if task.startswith(("DC", "DS")) else None
    result = _in_subprocess(task, path, query, timeout=timeout)
    expected = _reference(task, path.name)
    name = path.name.removesuffix(".af")
    base = dict(
        task=task,
        instance=name,
        arguments=int(info["args"]),
        attacks=int(info["attacks"]),
        target=target,
    )
    if result is None:
        return _show(
            Row(**base, extensions=NO_VALUE, seconds=None, note=f"killed after {timeout:g} s")
        )
    if "error" in result:
        return _show(
            Row(
                **base,
                extensions=NO_VALUE,
                seconds=None,
                ref="MISMATCH",
                note=f"crashed: {result['error'][:60]}",
                failure="ERROR",
            )
        )
    answer = result["answer"]
    if expected is None:
        ref = NO_VALUE
    else:
        ref = "ok" if answer == expected and result["witness_ok"] is not False else "MISMATCH"
    if result["count"] is not None:
        shown = f"{result['count']:,}"
    elif task.startswith("SE"):
        shown = "1" if answer == "EXT" else "0"
    else:
        shown = NO_VALUE
    note = f"answer {answer}" if task.startswith(("DC", "DS")) else ""
    if result["witness_ok"] is False:
        note += " bad witness"
    return _show(
        Row(**base, extensions=shown, seconds=result["seconds"], ref=ref, note=note.strip())
    )


def _timeout(*, quick: bool) -> float:
    return ICCMA_TARGET_S if quick else TIMEOUT_S


def iccma_rows(*, quick: bool) -> list[Row]:
    if iccma_dir() is None:
        print("(ICCMA sample not found: ../shared/iccma or $ICCMA_DIR; rows skipped)")
        return []
    limit = QUICK_MAX_ARGUMENTS if quick else ICCMA_MAX_ARGUMENTS
    timeout = _timeout(quick=quick)
    files = [path for path in af_files() if int(mutoksia_answers()[path.name]["args"]) <= limit]
    files.sort(key=lambda path: int(mutoksia_answers()[path.name]["args"]))
    rows = [
        iccma_row(task, path, target=ICCMA_TARGET_S, timeout=timeout)
        for path in files
        for task in ("DC-CO", "DS-PR", "SE-PR", "SE-ST")
    ]
    counted = [path for path in files if "PR" in extension_counts().get(path.name, {})]
    rows += [
        iccma_row(task, path, target=None, timeout=timeout)
        for path in counted
        for task in ("EE-PR", "CE-PR")
    ]
    return rows


# --- entry points -------------------------------------------------------------------------


def _summary(rows: list[Row], *, started: float) -> int:
    misses = sum(row.verdict == "MISS" for row in rows)
    timeouts = sum(row.seconds is None for row in rows)
    mismatches = sum(row.ref == "MISMATCH" for row in rows)
    agreed = sum(row.ref == "ok" for row in rows)
    print(
        f"{len(rows)} rows: {agreed} match the reference, {mismatches} MISMATCH, "
        f"{misses} missed targets ({timeouts} TIMEOUT); "
        f"wall time {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    return 1 if mismatches else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Print the benchmark table; 1 if some answer disagrees with the reference."""
    args = list(argv or [])
    quick = "--quick" in args or os.environ.get("BENCH_QUICK") == "1"
    started = time.perf_counter()
    print(
        f"targets: GR on random AFs < {GROUNDED_TARGET_S:g} s; debate-sized GR+PR+ST+LAB "
        f"median < {DEBATE_TARGET_S * 1000:g} ms; ICCMA tasks < {ICCMA_TARGET_S:g} s "
        f"(killed at {_timeout(quick=quick):g} s){'; QUICK sample' if quick else ''}",
        flush=True,
    )
    _print_row([name for name, _, _ in _COLUMNS])
    rows: list[Row] = []
    steps: list[Callable[[], list[Row]]] = [
        lambda: grounded_rows(quick=quick),
        lambda: [debate_row(quick=quick)],
        lambda: iccma_rows(quick=quick),
    ]
    for step in steps:
        rows += step()
    return _summary(rows, started=started)


def _worker_main(args: Sequence[str]) -> int:
    task, path, *rest = args
    print(json.dumps(_worker(task, path, rest[0] if rest else None)))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        raise SystemExit(_worker_main(sys.argv[2:]))
    raise SystemExit(main(sys.argv[1:]))
