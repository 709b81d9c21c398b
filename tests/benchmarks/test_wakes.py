"""benchmarks.wakes: the counts /proc gives, read as the coach bench reads them."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from benchmarks.wakes import reference_work_us, voluntary_switches, wake_cost_us

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads Linux /proc")

SLEEPER = "import sys, time\nfor _ in range({n}): time.sleep(0.002)\nprint('done', flush=True)\nsys.stdin.read()"


def _sleeper(n: int) -> subprocess.Popen:
    child = subprocess.Popen(
        [sys.executable, "-c", SLEEPER.format(n=n)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "done"
    return child


def test_it_counts_each_sleep_of_another_process_as_a_wake():
    few, many = _sleeper(5), _sleeper(205)
    try:
        # The same start-up either way; two hundred extra sleeps are as many extra wakes.
        assert voluntary_switches(many.pid) - voluntary_switches(few.pid) >= 150
    finally:
        for child in (few, many):
            child.communicate("")


def test_it_counts_the_children_of_a_process_too():
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {SLEEPER.format(n=150)!r}])",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert parent.stdout.readline().strip() == "done"  # the child's line, through the parent
        assert voluntary_switches(parent.pid) >= 150
    finally:
        parent.communicate("")


def test_it_says_none_for_a_process_that_is_gone():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert voluntary_switches(child.pid) is None


def test_it_prices_a_wake_in_this_threads_cpu_time():
    started = time.thread_time_ns()
    cost = wake_cost_us(idle_s=0.001, wakes=20)
    spent_us = (time.thread_time_ns() - started) / 1000
    # A median of what each wake cost: more than nothing, at most what they all cost.
    assert 0 < cost <= spent_us


def test_it_times_the_reference_work_in_proportion_to_it():
    once = reference_work_us(idle_s=0, runs=9)
    four_times = reference_work_us(idle_s=0, runs=9, repeat=4)
    # What is timed is the work: four times as much costs clearly more than twice as much
    # (not a constant such as the clock's own cost).
    assert once > 0
    assert four_times > 2 * once


def test_it_times_the_reference_work_after_a_pause_too():
    started = time.thread_time_ns()
    alone = reference_work_us(idle_s=0.01, runs=5)
    spent_us = (time.thread_time_ns() - started) / 1000
    # The pause is not counted (a sleeping thread uses no CPU): the median of the runs is
    # at most the CPU they all took, and the work is more than nothing.
    assert 0 < alone <= spent_us
