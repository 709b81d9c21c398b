"""The engine imports no format: a format registers itself, the engine never names it.

The formats (the graph debate in ``debates``, ``inquiries``, ``tournaments``,
``stresstests``) import the engine and register their ``Format`` in their
``AppConfig.ready`` (``engine.formats.register_format``); the engine runs
whatever is registered. Every import counts here, lazy ones too: an import
inside a function is still the engine knowing a format. What a format may take
from the engine is checked in test_format_imports.py.
"""

from __future__ import annotations

from tests.house.imports import imports, modules

ENGINE = "engine"
FORMATS = frozenset({"debates", "inquiries", "tournaments", "stresstests"})


def format_imports(module: str) -> list[str]:
    """``module:line imported`` for each import of a format's module by ``module``."""
    return [
        f"{module}:{imported.line} {imported.module}"
        for imported in imports(module)
        if imported.module.split(".")[0] in FORMATS
    ]


def _engine_modules() -> list[str]:
    return [name for name in modules() if name.split(".")[0] == ENGINE]


def test_it_finds_no_format_imported_by_the_engine() -> None:
    engine = _engine_modules()
    assert {"engine.orchestrator", "engine.formats", "engine.models", "engine.sse"} <= set(engine)
    assert [found for module in engine for found in format_imports(module)] == []


def test_it_would_see_a_format_imported() -> None:
    assert FORMATS | {ENGINE} <= {name.split(".")[0] for name in modules()}
    # The stress test borrows the graph debate's stages: seen, as it would be in the engine.
    assert any(" debates." in found for found in format_imports("stresstests.stages"))
