"""Research during a tournament: the model's ``research`` tool (issue 10).

Filled in below with the tool-use exchange; ``toolbox(state)`` is what a
challenge or defence call offers the model.
"""

from __future__ import annotations

__all__ = ["toolbox"]


def toolbox(state):
    return None
