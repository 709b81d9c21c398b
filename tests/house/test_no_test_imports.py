"""The product never imports the test tree: a site may be deployed without ``tests/``.

``make run`` loads every demo with the product's own code, so a deployment
that ships only the product (no ``tests/``, no ``benchmarks/``) can load
them. Every import counts, lazy ones inside a function too, and a module
named to ``importlib.import_module`` or ``__import__`` as a string. The
benchmarks drive the product from outside, as the tests do, and may use the
tests' fakes.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.house.imports import ROOT, modules

TEST_TREE = "tests"
_BY_NAME = frozenset({"import_module", "__import__"})


def _in_test_tree(name: str) -> bool:
    return name == TEST_TREE or name.startswith(f"{TEST_TREE}.")


def _called(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def imports_of_the_test_tree(source: str) -> list[tuple[int, str]]:
    """``(line, module)`` for each module of the test tree that ``source`` imports."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if _in_test_tree(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            if _in_test_tree(node.module or ""):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and _called(node) in _BY_NAME and node.args:
            named = getattr(node.args[0], "value", None)
            if isinstance(named, str) and _in_test_tree(named):
                found.append((node.lineno, named))
    return sorted(found)


def _product_files() -> dict[str, Path]:
    """Every module of the product's packages, and the scripts beside them (manage.py)."""
    return {**modules(), **{path.stem: path for path in ROOT.glob("*.py")}}


def test_it_finds_no_product_module_importing_the_test_tree() -> None:
    files = _product_files()
    assert {"inquiries.demo", "inquiries.demo_script", "manage"} <= set(files)
    assert not any(name.split(".")[0] in (TEST_TREE, "benchmarks") for name in files)
    found = [
        f"{name}:{line} {module}"
        for name, path in sorted(files.items())
        for line, module in imports_of_the_test_tree(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_it_would_catch_an_import_of_the_test_tree() -> None:
    source = (
        "import importlib\n"
        "import tests\n"
        "from tests.fakes.anthropic_server import FakeAnthropicServer\n"
        "from tests import fakes\n"
        "def load():\n"
        "    import tests.fakes.inquiry_model as model\n"
        "    importlib.import_module('tests.fakes.anthropic_wire')\n"
        "    return __import__('tests.fakes')\n"
        "import testsuite, stresstests.demo\n"
        "from stresstests import tests_of_the_student\n"
        "from . import tests\n"
    )
    assert imports_of_the_test_tree(source) == [
        (2, "tests"),
        (3, "tests.fakes.anthropic_server"),
        (4, "tests"),
        (6, "tests.fakes.inquiry_model"),
        (7, "tests.fakes.anthropic_wire"),
        (8, "tests.fakes"),
    ]
