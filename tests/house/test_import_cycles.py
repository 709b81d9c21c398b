"""No circle among the project's modules, lazy imports included.

An import inside a function hides a circle from Python at start-up but not
from the reader: trials' background, services and tasks once imported each
other that way, and the engine's models once asked the format registry for a
run's label and page from inside their methods while the registry's stage
contract named the models under ``if TYPE_CHECKING``. Every import counts
here: at module level, in a function, or for the type checker only.
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


def test_it_counts_the_imports_only_a_type_checker_reads() -> None:
    graph = module_graph()
    # engine/stages.py names the run's model for its checker only.
    assert "engine.models" in graph["engine.stages"]
    assert "engine.models" not in module_graph(lazy=False)["engine.stages"]
    # The models asking the registry again (as Debate.page_url once did) closes a circle.
    circled = graph | {"engine.models": graph["engine.models"] | {"engine.formats"}}
    assert any({"engine.models", "engine.formats"} <= cycle for cycle in cycles(circled))
