"""What an outside rule (an instructor's assignment) allows on one argument.

The coach does not know about classes: an app registers a *policy source*
(`register_policy_source`, in its AppConfig.ready), a function from an
argument to a `Policy` or None. `policy_for` asks each source; with none
answering, everything is allowed (the coach's own behaviour). The coach's
API, pages, services and guards consult the policy server-side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["OPEN", "Policy", "policy_for", "register_policy_source"]


@dataclass(frozen=True, slots=True)
class Policy:
    # The coach may propose text (False: hints only; every proposedUpdate is stripped).
    proposals: bool = True
    # The coach answers at all (False: typed fields only).
    coach: bool = True
    # Non-empty: the argument is read-only, and this sentence says why.
    locked: str = ""
    # Non-empty: no coach turn is left; the sentence names the quota.
    quota_refusal: str = ""
    # (step id, text) -> sentences naming the required criteria the text misses.
    criteria_check: Callable[[str, str], list[str]] | None = None
    # One short sentence for the page about the rules in force ("" when none).
    summary: str = ""
    # {step id: [label of a required criterion, ...]}, shown to the student.
    requirements: dict[str, list[str]] = field(default_factory=dict)

    def unmet(self, step: str, text: str) -> list[str]:
        return self.criteria_check(step, text) if self.criteria_check else []


OPEN = Policy()


_SOURCES: list[Callable[[Any], Policy | None]] = []


def register_policy_source(source: Callable[[Any], Policy | None]) -> None:
    """Add `source` (asked in the order registered); registering it again changes nothing."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def policy_for(argument: Any) -> Policy:
    """The first policy a source gives for this argument, else OPEN."""
    for source in _SOURCES:
        found = source(argument)
        if found is not None:
            return found
    return OPEN
