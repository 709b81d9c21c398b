"""A format uses the engine (and another format) through what it exports, never private names.

The formats (the graph debate in ``debates``, inquiries, tournaments, stress
tests) run on the engine in ``engine``. What they take from an ``engine``
module, or from another format's (the stress test reuses the graph debate's
stages), must be in that module's ``__all__`` (or, for a module without one
such as ``models``, a public name): a private helper (``_pending``) or an
unlisted one may change under the format without notice.
"""

from __future__ import annotations

import ast

from tests.house.imports import exported, modules

FORMAT_PACKAGES = ("debates", "inquiries", "tournaments", "stresstests")
ENGINE = "engine"


def _guarded(module: str, *, own: str) -> bool:
    """The engine's modules, and another format's: what a format may only borrow publicly."""
    package = module.split(".")[0]
    return package == ENGINE or (package in FORMAT_PACKAGES and package != own)


def borrowed_privately(source: str, *, known: set[str], own: str = "") -> list[str]:
    """``module.name`` for each name a source takes from the engine or another format
    that its module does not export."""
    found, aliases = [], {}

    def _engine(module: str) -> bool:
        return _guarded(module, own=own)

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and _engine(node.module):
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if target in known:  # a module: its names are checked where they are used
                    aliases[alias.asname or alias.name] = target
                    continue
                listed = exported(node.module)
                if alias.name.startswith("_") or (listed is not None and alias.name not in listed):
                    found.append(target)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _engine(alias.name) and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            owner = ast.unparse(node.value)
            module = aliases.get(owner, owner)
            if module in known and _engine(module) and not node.attr.startswith("__"):
                found.append(f"{module}.{node.attr}")
    return found


def _format_modules() -> list[str]:
    return [
        name
        for name in modules()
        if name.split(".")[0] in FORMAT_PACKAGES and ".migrations." not in f"{name}."
    ]


def test_it_finds_no_private_engine_name_in_a_format() -> None:
    known = set(modules())
    found = {
        module: borrowed
        for module in _format_modules()
        if (
            borrowed := borrowed_privately(
                modules()[module].read_text(), known=known, own=module.split(".")[0]
            )
        )
    }
    assert found == {}


def test_it_would_catch_a_private_or_unlisted_name() -> None:
    known = set(modules())
    source = (
        "import debates.stages\n"
        "from debates import stages as s\n"
        "from debates.stages import _pending, pending_attacks\n"
        "from engine.orchestrator import unanswered_stage\n"
        "from engine.calls import _stage_failure, CallSpec\n"
        "from engine.models import Debate\n"
        "s._dedupe_key(1)\n"
        "debates.stages._pending(1, 2)\n"
    )
    assert sorted(borrowed_privately(source, known=known, own="stresstests")) == [
        "debates.stages._dedupe_key",
        "debates.stages._pending",
        "debates.stages._pending",
        "engine.calls._stage_failure",
        "engine.orchestrator.unanswered_stage",
    ]
    # The graph debate's own private names are its own business.
    assert sorted(borrowed_privately(source, known=known, own="debates")) == [
        "engine.calls._stage_failure",
        "engine.orchestrator.unanswered_stage",
    ]
    assert len(_format_modules()) > 60  # the packages were found
