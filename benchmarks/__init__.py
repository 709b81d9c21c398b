"""Benchmarks: ``python -m benchmarks [--quick] [NAME ...]`` (``make bench``).

Every module ``benchmarks/bench_NAME.py`` provides ``main()``, which prints its own
table and returns an exit status (0, or non-zero when an answer was wrong; a missed
speed target is reported, not failed). ``--quick`` reaches the modules as the
environment variable ``BENCH_QUICK=1``: each benchmark then runs a smaller sample.
"""
