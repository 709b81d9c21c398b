"""How often a process's threads wake, and what a wake costs on this machine (Linux /proc).

A paced coach turn costs this machine's server far more CPU than the same turn back
to back (docs/coach.md, "Thirteenth round"): between turns every thread sleeps, and a
thread that wakes after a pause runs its first microseconds on cold caches, which on a
virtual machine can cost more than the work it wakes for. The bench reports both
numbers so that a reader can tell a slower turn from a machine whose wakes cost more.
Its CPU figure reads the same /proc files (`proc_stat`, `children`).
"""

from __future__ import annotations

import time
from pathlib import Path

__all__ = ["children", "proc_stat", "voluntary_switches", "wake_cost_us"]


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
