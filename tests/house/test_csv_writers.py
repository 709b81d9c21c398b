"""Every CSV the product writes goes through ``untrusted.spreadsheet``: a cell a student
wrote ("=HYPERLINK(...)") must never reach a spreadsheet as a formula. A module that
opened its own ``csv.writer`` would skip that, so only the helper may."""

from __future__ import annotations

import ast

from tests.house.imports import modules

HELPER = "untrusted.spreadsheet"
WRITERS = {"writer", "DictWriter"}


def csv_writers(source: str) -> list[int]:
    """Lines that make a ``csv`` writer (``csv.writer(...)`` or a name imported from csv)."""
    tree = ast.parse(source)
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "csv"
        for alias in node.names
        if alias.name in WRITERS
    }
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in WRITERS
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "csv"
            )
            or (isinstance(node.func, ast.Name) and node.func.id in imported)
        )
    ]


def test_it_finds_no_csv_writer_outside_the_helper() -> None:
    found = [
        f"{name}:{line}"
        for name, path in modules().items()
        if name != HELPER
        for line in csv_writers(path.read_text())
    ]
    assert found == []
    assert csv_writers(modules()[HELPER].read_text())  # the helper itself is seen


def test_it_would_see_a_writer_made_either_way() -> None:
    assert csv_writers("import csv\nw = csv.writer(out)") == [2]
    assert csv_writers("from csv import DictWriter as W\nw = W(out, ['a'])") == [2]
    assert csv_writers("import csv\nr = csv.reader(src)") == []
