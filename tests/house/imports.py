"""The project's import graph, read with ``ast`` from the source (nothing is imported)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["ROOT", "Import", "cycles", "exported", "imports", "module_graph", "modules"]

ROOT = Path(__file__).resolve().parents[2]
# Not the product: the tests themselves and the benchmarks that drive it.
_NOT_PRODUCT = frozenset({"tests", "benchmarks", "node_modules"})


@dataclass(frozen=True)
class Import:
    module: str  # the module named, resolved if relative
    name: str | None  # for ``from module import name``; None for ``import module``
    line: int
    top_level: (
        bool  # runs when the importing module is imported (not in a function or TYPE_CHECKING)
    )


@cache
def modules() -> dict[str, Path]:
    """Every module of the product's packages, by dotted name."""
    found: dict[str, Path] = {}
    for package in sorted(ROOT.iterdir()):
        if package.name in _NOT_PRODUCT or not (package / "__init__.py").is_file():
            continue
        for path in package.rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, *, top_level: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Every node with whether it runs at import. An import under ``if TYPE_CHECKING``
    never runs, so it is not top level, but it is still an import: a module that
    names another's types for its checker depends on it, and a circle through
    such an import is a circle the reader meets."""
    for child in ast.iter_child_nodes(node):
        inner = top_level and not (
            isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            or (isinstance(child, ast.If) and _is_type_checking(child))
        )
        yield child, inner
        yield from _walk(child, top_level=inner)


@cache
def imports(module: str) -> tuple[Import, ...]:
    path = modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node, top_level in _walk(ast.parse(path.read_text(), str(path)), top_level=True):
        if isinstance(node, ast.Import):
            found += [Import(a.name, None, node.lineno, top_level) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found += [Import(base, a.name, node.lineno, top_level) for a in node.names]
    return tuple(found)


def _target(imported: Import) -> str | None:
    """The project module an import loads: ``from a import b`` is module a.b when there is one."""
    known = modules()
    if imported.name and f"{imported.module}.{imported.name}" in known:
        return f"{imported.module}.{imported.name}"
    return imported.module if imported.module in known else None


def module_graph(*, lazy: bool = True) -> dict[str, set[str]]:
    """Module -> the project modules it imports; ``lazy=False``: only when it is imported."""
    return {
        module: {
            target
            for imported in imports(module)
            if (lazy or imported.top_level) and (target := _target(imported)) and target != module
        }
        for module in modules()
    }


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep import chain cannot hit the recursion limit.
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@cache
def exported(module: str) -> frozenset[str] | None:
    """The names in a module's ``__all__``, or None when it declares none."""
    path = modules().get(module)
    if path is None:
        return None
    for node in ast.parse(path.read_text()).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return frozenset(ast.literal_eval(node.value))
    return None
