"""``python -m argumentation``: the ICCMA-style solver command line (see :mod:`argumentation.cli`)."""

from argumentation.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
