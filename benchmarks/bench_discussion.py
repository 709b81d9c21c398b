"""Benchmark: recomputing what stands in a class discussion after a post.

Random discussions shaped like a class's: about one post in six is an argument
for or against the thesis, the rest objections to an earlier post (rebut,
undermine or undercut, uniformly). For each size, a discussion of that many
posts gets POSTS_AFTER more, one at a time, and each time what stands is
computed again as the page does after a post (``discussions.recompute``: every
post's label, preferred acceptance, the camps' count, the cruxes, the thesis);
median and p95 over those posts; then the same posts added to what stands kept
up to date (``discussions.growing``, what the live pages' follower does). The whole framework's computation
(``discussions.standing.compute_standing``, the reference the property test
compares with) is timed at the smaller sizes for comparison; at 5,000 posts it
took 7-30 s. Then "what would change it", asked on demand by a button, at
the largest size: for random posts and for the thesis. Pure Python, no
database. The issue's target: p95 < 100 ms at 5,000 posts.
"""

from __future__ import annotations

import os
import random
import statistics
import time

from discussions.flips import post_flip, thesis_flip
from discussions.growing import Growing
from discussions.recompute import fast_standing
from discussions.standing import PostNode, compute_standing

SIZES = (300, 1000, 5000)
WHOLE_UP_TO = 1000
POSTS_AFTER = 40


def discussion(n: int, *, seed: int) -> list[PostNode]:
    rnd = random.Random(seed)
    nodes = []
    for i in range(1, n + 1):
        nodes.append(_post(i, rnd))
    return nodes


def _post(i: int, rnd: random.Random) -> PostNode:
    if i <= 2 or rnd.random() < 1 / 6:
        return PostNode(id=i, side=rnd.choice(["for", "against"]))
    kind = rnd.choice(["rebut", "undermine", "undercut"])
    return PostNode(id=i, target=rnd.randint(1, i - 1), attack_type=kind)


def _figures(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return f"median {statistics.median(times):7.1f} ms, p95 {p95:7.1f} ms, max {times[-1]:7.1f} ms"


def _after_posts(n: int, count: int, compute) -> list[float]:
    rnd = random.Random(n)
    nodes = discussion(n, seed=n)
    times = []
    for i in range(n + 1, n + count + 1):
        nodes.append(_post(i, rnd))
        start = time.perf_counter()
        compute(nodes)
        times.append((time.perf_counter() - start) * 1000)
    return times


def _after_posts_kept(n: int, count: int) -> list[float]:
    """As ``_after_posts``, what stands kept up to date (``discussions.growing``, what a
    live page's follower does after a post) instead of computed again."""
    rnd = random.Random(n)
    growing = Growing(discussion(n, seed=n))
    times = []
    for i in range(n + 1, n + count + 1):
        node = _post(i, rnd)
        start = time.perf_counter()
        growing.add([node])
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    quick = os.environ.get("BENCH_QUICK") == "1"
    count = 10 if quick else POSTS_AFTER
    for n in SIZES[:2] if quick else SIZES:
        print(
            f"{n:>5} posts, after each of {count} more: {_figures(_after_posts(n, count, fast_standing))}",
            flush=True,
        )
        kept = _after_posts_kept(n, count)
        print(f"{'':>5}        kept up to date instead: {_figures(kept)}", flush=True)
        if n <= WHOLE_UP_TO:
            whole = _after_posts(n, min(count, 10), compute_standing)
            print(
                f"{'':>5}        the whole framework's computation: {_figures(whole)}", flush=True
            )
    n = SIZES[1] if quick else SIZES[-1]
    nodes = discussion(n, seed=n)
    rnd = random.Random(1)
    flips = []
    for post in rnd.sample(nodes, 10 if quick else 30):
        start = time.perf_counter()
        post_flip(nodes, post.id)
        flips.append((time.perf_counter() - start) * 1000)
    print(f"{n:>5} posts, what would change a post (on demand): {_figures(flips)}", flush=True)
    sides = {node.id: node.side for node in nodes if node.target is None}
    start = time.perf_counter()
    thesis_flip(nodes, sides=sides)
    print(
        f"{'':>5}        what would change the thesis: {(time.perf_counter() - start) * 1000:.0f} ms"
    )
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
