"""Code says why in its own words: no comment or docstring points at an issue number.

An issue is read once; the code is read for years, by people who cannot open
the tracker. The product's packages, the benchmarks, the tests, the templates and the
static files are read.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.house.imports import ROOT

ISSUE = re.compile(r"\b[Ii]ssue\s*(?:§|#)?\s*\d")
READ = ("benchmarks", "tests")


def _sources() -> list:
    packages = [p for p in ROOT.iterdir() if (p / "__init__.py").is_file()]
    code = [path for package in packages for path in package.rglob("*.py")]
    pages = [
        path
        for folder in ("templates", "static")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in {".html", ".txt", ".js", ".css"}
    ]
    return code + pages


def test_it_finds_no_issue_number_in_the_code() -> None:
    sources = _sources()
    assert {path.relative_to(ROOT).parts[0] for path in sources} >= {
        *READ,
        "debates",
        "trials",
        "templates",
        "static",
    }
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        if path != Path(__file__)  # its own examples below
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if ISSUE.search(line)
    ]
    assert found == []


def test_it_would_see_an_issue_number() -> None:
    assert ISSUE.search('"""Stops (issue 21 §1)."""') and ISSUE.search("# see issue #4")
    assert not ISSUE.search("the issuer's nonce") and not ISSUE.search("issues found: none")
