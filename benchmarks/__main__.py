"""Run every ``benchmarks/bench_*.py`` module's ``main()`` in turn, or only those named.

``python -m benchmarks``            all benchmarks
``python -m benchmarks solver``     only ``bench_solver.py``
``python -m benchmarks --quick``    smaller samples (sets ``BENCH_QUICK=1``)

Modules are found by glob, so a new ``bench_*.py`` file joins without editing this one.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def available() -> list[str]:
    """Benchmark names, i.e. ``bench_NAME.py`` files next to this one, sorted."""
    here = Path(__file__).parent
    return sorted(path.stem.removeprefix("bench_") for path in here.glob("bench_*.py"))


def _call(entry: Callable[..., object]) -> object:
    """Call a benchmark's ``main``, giving it an empty argv when it takes one.

    A ``main(argv=None)`` that hands ``None`` to argparse would otherwise parse OUR
    command line (``solver --quick``) and reject it; options travel as environment.
    """
    parameters = inspect.signature(entry).parameters.values()
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    takes_argv = any(p.kind in positional or p.kind is p.VAR_POSITIONAL for p in parameters)
    return entry([]) if takes_argv else entry()


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    options = [arg for arg in args if arg.startswith("-")]
    names = [arg for arg in args if not arg.startswith("-")]
    if set(options) - {"--quick"} or set(names) - set(available()):
        sys.stderr.write(f"usage: python -m benchmarks [--quick] [{'|'.join(available())} ...]\n")
        return 2
    if "--quick" in options:
        os.environ["BENCH_QUICK"] = "1"
    status = 0
    for name in names or available():
        print(f"== benchmarks/bench_{name}.py ==", flush=True)
        module = importlib.import_module(f"benchmarks.bench_{name}")
        status = max(status, int(_call(module.main) or 0))
        print(flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
