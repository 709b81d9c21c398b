"""Where the shared ICCMA sample lives and how to read its reference answers.

The sample is not part of the repository: it sits next to the checkout at
``../shared/iccma`` (relative to the repository root) or wherever ``$ICCMA_DIR``
points. Every helper returns empty data when it is missing, so that test modules can
collect and then skip with :data:`MISSING_REASON`. The benchmarks read the same
reference through this module, so there is one parser for it.
"""

from __future__ import annotations

import csv
import json
import os
import re
from functools import cache
from pathlib import Path

__all__ = [
    "MISSING_REASON",
    "REPO_ROOT",
    "af_files",
    "extension_counts",
    "grounded_labellings",
    "iccma_dir",
    "mutoksia_answers",
    "original_twins",
    "probo_solutions",
]

REPO_ROOT = Path(__file__).resolve().parents[2]
MISSING_REASON = "ICCMA sample not found: expected ../shared/iccma next to the repo or $ICCMA_DIR"


@cache
def iccma_dir() -> Path | None:
    """The sample folder, or ``None`` when it is not there (newcomer without ../shared)."""
    configured = os.environ.get("ICCMA_DIR")
    folder = Path(configured) if configured else REPO_ROOT.parent / "shared" / "iccma"
    return folder if (folder / "reference").is_dir() else None


def af_files() -> list[Path]:
    """Every ICCMA'23-format framework of the sample, by name."""
    folder = iccma_dir()
    return sorted((folder / "iccma23_format").glob("*.af")) if folder else []


@cache
def mutoksia_answers() -> dict[str, dict[str, str]]:
    """``answers_mutoksia_pygarg.csv`` rows keyed by instance file name (``x.af``)."""
    return {row["instance"]: row for row in _csv_rows("answers_mutoksia_pygarg.csv")}


@cache
def grounded_labellings() -> dict[str, dict]:
    """``grounded_labellings.json``: ``{instance: {args, IN, OUT, UNDEC_count}}``."""
    folder = iccma_dir()
    if folder is None:
        return {}
    return json.loads((folder / "reference" / "grounded_labellings.json").read_text())


@cache
def extension_counts() -> dict[str, dict[str, int]]:
    """``{instance: {"CO": n, "PR": n, "ST": n}}`` with only the counts that were found."""
    counts: dict[str, dict[str, int]] = {}
    for row in _csv_rows("extension_counts.csv"):
        known = {sem: int(row[f"n_{sem}"]) for sem in ("CO", "PR", "ST") if row[f"n_{sem}"]}
        counts[row["instance"]] = known
    return counts


def probo_solutions() -> dict[tuple[str, str], set[frozenset[str]]]:
    """probo's ``solutions/exK.apx.EE-SEM`` files as ``{("exK", SEM): {extension, ...}}``.

    The files look like ``[[a2,a5],[],[a1,a3,a4]]``.
    """
    folder = iccma_dir()
    if folder is None:
        return {}
    solutions: dict[tuple[str, str], set[frozenset[str]]] = {}
    for path in sorted((folder / "probo_examples" / "solutions").glob("*.apx.EE-*")):
        example, semantics = path.name.split(".apx.EE-")
        groups = re.findall(r"\[([^\[\]]*)\]", path.read_text())
        solutions[(example, semantics)] = {
            frozenset(name.strip() for name in group.split(",") if name.strip()) for group in groups
        }
    return solutions


def original_twins() -> list[tuple[Path, Path]]:
    """``(original .apx/.tgf, converted .af)`` pairs: same framework, numbered in name order."""
    folder = iccma_dir()
    if folder is None:
        return []
    originals = [
        *(folder / "original_apx_tgf").rglob("*.apx"),
        *(folder / "original_apx_tgf").rglob("*.tgf"),
        *(folder / "probo_examples").glob("*.apx"),
        *(folder / "probo_examples").glob("*.tgf"),
        *(folder / "small_generated").glob("*.apx"),
    ]
    pairs = []
    for original in sorted(originals):
        twin = folder / "iccma23_format" / f"{original.stem}.af"
        if twin.is_file():
            pairs.append((original, twin))
    return pairs


def _csv_rows(name: str) -> list[dict[str, str]]:
    folder = iccma_dir()
    if folder is None:
        return []
    with (folder / "reference" / name).open(newline="") as handle:
        return list(csv.DictReader(handle))
