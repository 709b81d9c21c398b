"""How often a process's threads wake, and what a wake costs on this machine (Linux /proc).

A paced coach turn costs this machine's server far more CPU than the same turn back
to back (docs/coach.md, "Speed"): between turns every thread sleeps, and a
thread that wakes after a pause runs its first microseconds on cold caches, which on a
virtual machine can cost more than the work it wakes for. The bench reports both
numbers so that a reader can tell a slower turn from a machine whose wakes cost more.
Its CPU figure reads the same /proc files (`proc_stat`, `children`).

A wake's own price is not all of it: the work a woken thread then does runs slower too,
while the caches refill. `reference_work_us` times one fixed piece of Python work (JSON
round trips, a regular expression, a walk over a heap of small dicts: what a request
does, in kind) run back to back and run after a pause. The first says how fast the
machine is, so figures from two machines can be compared; the ratio of the two says
how much dearer the same work is when it comes alone, as a paced turn does.
"""

from __future__ import annotations

import json
import re
import statistics
import time
from functools import cache
from pathlib import Path

__all__ = ["children", "proc_stat", "reference_work_us", "voluntary_switches", "wake_cost_us"]


def proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command's name (the ppid first); None if gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def children(pid: int) -> list[int]:
    """Direct children of `pid` (uvicorn's worker processes when it runs several)."""
    return [
        int(entry.name)
        for entry in Path("/proc").iterdir()
        if entry.name.isdigit() and (fields := proc_stat(int(entry.name))) and int(fields[1]) == pid
    ]


def voluntary_switches(pid: int) -> int | None:
    """Times the live threads of `pid` and of its children gave up the CPU to wait.

    Each is a sleep (on a socket, a lock, the GIL, a queue), so each is later a wake.
    Threads that have exited are not counted: /proc keeps no total for them.
    None if `pid` is gone or this is not Linux.
    """
    total = 0
    for process in (pid, *children(pid)):
        try:
            tasks = list(Path(f"/proc/{process}/task").iterdir())
        except OSError:
            if process == pid:
                return None
            continue
        for task in tasks:
            try:
                status = (task / "status").read_text()
            except OSError:
                continue  # the thread ended meanwhile
            for line in status.splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    total += int(line.split(":", 1)[1])
    return total


def wake_cost_us(*, idle_s: float, wakes: int) -> float:
    """Median CPU (µs) this thread spends per wake when it sleeps `idle_s` between wakes.

    The loop does nothing but sleep, so what the thread's CPU clock counts is the wake
    itself: the kernel's and the hypervisor's share charged to the thread, and the cold
    caches the interpreter finds.
    """
    costs = []
    for _ in range(wakes):
        before = time.thread_time_ns()
        time.sleep(idle_s)
        costs.append((time.thread_time_ns() - before) / 1000)
    costs.sort()
    return costs[len(costs) // 2]


@cache
def _reference_inputs() -> tuple[str, re.Pattern[str], tuple[dict[str, object], ...]]:
    # A request's worth of JSON, and a heap of small objects like a process's own.
    body = {"system": "x" * 2000, "messages": [{"role": "user", "text": "word " * 50}] * 30}
    heap = tuple({"a": index, "b": str(index), "c": [index] * 5} for index in range(20_000))
    return json.dumps(body), re.compile(r"\b(\w+)\b"), heap


def _reference_work(repeat: int) -> int:
    text, words, heap = _reference_inputs()
    total = 0
    for _ in range(repeat):
        for _ in range(3):
            total += len(words.findall(json.dumps(json.loads(text))[:3000]))
        for item in heap[::7]:
            total += item["a"] + len(item["b"])
    return total


def reference_work_us(*, idle_s: float, runs: int, repeat: int = 1) -> float:
    """Median CPU (µs) this thread spends on a fixed piece of Python work, each run
    `idle_s` after the last (0: back to back). `repeat` multiplies the work."""
    _reference_work(repeat)  # the inputs built and the code run once before timing
    costs = []
    for _ in range(runs):
        if idle_s:
            time.sleep(idle_s)
        before = time.thread_time_ns()
        _reference_work(repeat)
        costs.append((time.thread_time_ns() - before) / 1000)
    return statistics.median(costs)
