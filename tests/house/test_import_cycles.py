"""No circle among the project's modules, lazy imports included.

An import inside a function hides a circle from Python at start-up but not
from the reader: trials' background, services and tasks once imported each
other that way. Every import counts here, at module level or in a function
(not those under ``if TYPE_CHECKING``).
"""

from __future__ import annotations

from tests.house.imports import cycles, module_graph

# Circles the tree still has, each with why it is tolerated; today there are none.
ALLOWED: set[frozenset[str]] = set()


def test_it_finds_no_import_circle_among_the_modules() -> None:
    found = {cycle for cycle in cycles(module_graph()) if cycle not in ALLOWED}
    assert found == set(), [sorted(cycle) for cycle in found]


def test_it_would_find_a_circle_however_long() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    assert cycles(module_graph() | {"trials.runner": {"trials.services"}}) != []
