"""What every format shares is the engine's: no format borrows it from the graph debate.

A run's failure sentence, its Retry, money and times in an export, the runs
history and a run's Retry and Stop pages are the same for every format, so
they live in ``engine`` (engine/wording.py, engine/views.py). Inquiries and
tournaments import nothing from ``debates``; the stress test builds on the
graph debate's stages and graph (that is what it is), but takes nothing shared
from it either. Every import counts, lazy and type-checking ones too.
"""

from __future__ import annotations

from collections.abc import Iterable

from tests.house.imports import Import, imports, modules

GRAPH_DEBATE = "debates"
# Formats that are not the graph debate's kin: they owe it nothing.
UNRELATED_FORMATS = frozenset({"inquiries", "tournaments"})
# Once the graph debate's, borrowed by every format: the engine's now.
SHARED = frozenset(
    {
        "failure_message",
        "failure_messages",
        "key_needed_message",
        "money_text",
        "retry_offered",
        "retry_refused_message",
        "time_text",
    }
)


def graph_debate_imports(module: str) -> list[str]:
    """``module:line imported`` for each import of the graph debate's code by ``module``."""
    return [
        f"{module}:{imported.line} {imported.module}"
        for imported in imports(module)
        if imported.module.split(".")[0] == GRAPH_DEBATE
    ]


def shared_borrowed(module: str, found: Iterable[Import] | None = None) -> list[str]:
    """``module:line name`` for each shared thing ``module`` takes from the graph debate."""
    return [
        f"{module}:{imported.line} {imported.name}"
        for imported in (imports(module) if found is None else found)
        if imported.module.split(".")[0] == GRAPH_DEBATE and imported.name in SHARED
    ]


def test_it_finds_no_unrelated_format_importing_the_graph_debate() -> None:
    formats = [name for name in modules() if name.split(".")[0] in UNRELATED_FORMATS]
    assert {"tournaments.views", "inquiries.exports"} <= set(formats)
    assert [found for module in formats for found in graph_debate_imports(module)] == []


def test_it_finds_nothing_shared_taken_from_the_graph_debate() -> None:
    others = [name for name in modules() if name.split(".")[0] != GRAPH_DEBATE]
    assert [found for module in others for found in shared_borrowed(module)] == []


def test_it_would_see_a_format_importing_the_graph_debate() -> None:
    # The stress test builds on the graph debate's stages: seen, as it would be elsewhere.
    assert graph_debate_imports("stresstests.stages")
    assert shared_borrowed("stresstests.stages") == []
    borrowing = [Import("debates.presenters", "failure_message", 13, top_level=True)]
    assert shared_borrowed("stresstests.presenters", borrowing) == [
        "stresstests.presenters:13 failure_message"
    ]
