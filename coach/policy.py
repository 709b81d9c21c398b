"""What an outside rule (an instructor's assignment) allows on one argument.

The coach does not know about classes: an app registers a *policy source*
(`register_policy_source`, in its AppConfig.ready), a function from an
argument to a `Policy` or None. `policy_for` asks each source; with none
answering, everything is allowed (the coach's own behaviour). The coach's
API, pages, services and guards consult the policy server-side.

A source may also say how to read what it needs *with* the argument (a
`JoinedRead`: columns and LEFT JOINs from the argument's row). A coach turn
reads the argument that way (``coach.turn_sql.load_argument_and_policy``), so
a turn in a class waits on one statement for the argument and its rules, not
two: each round trip is a wait, and on a paced turn a wait costs more CPU than
the statement (docs/coach.md, "Speed").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "OPEN",
    "JoinedRead",
    "JoinedSQL",
    "Policy",
    "joined_reads",
    "policy_for",
    "register_policy_source",
]


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


@dataclass(frozen=True, slots=True)
class JoinedSQL:
    """SQL to add to a SELECT of the argument: `columns` for its select list (with
    `column_params`, in order) and `joins` after its FROM (with `join_params`). The joins
    are LEFT JOINs, so the argument's row comes back whether or not they find anything.
    Made once per database, the parameters with the text: they are constants."""

    columns: str
    joins: str
    column_params: tuple[Any, ...] = ()
    join_params: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class JoinedRead:
    """How a policy source reads what it needs in the statement that reads the argument.

    ``sql(alias, argument_pk)``: the `JoinedSQL` for database `alias`, where
    `argument_pk` is the argument's primary key column, quoted and qualified, for
    the joins to start from. ``width``: how many columns it adds. ``policy(argument,
    values)``: what the source's function would answer, from those columns' values.
    """

    sql: Callable[[str, str], JoinedSQL]
    width: int
    policy: Callable[[Any, Sequence[Any]], Policy | None]


_SOURCES: list[Callable[[Any], Policy | None]] = []
_JOINED: dict[Callable[[Any], Policy | None], JoinedRead] = {}


def register_policy_source(
    source: Callable[[Any], Policy | None], *, joined: JoinedRead | None = None
) -> None:
    """Add `source` (asked in the order registered); `joined`: its read in the argument's."""
    if source not in _SOURCES:
        _SOURCES.append(source)
    if joined is not None:
        _JOINED[source] = joined


def joined_reads() -> tuple[JoinedRead, ...]:
    """The joined reads of the registered sources, in the order they are asked."""
    return tuple(_JOINED[source] for source in _SOURCES if source in _JOINED)


def policy_for(
    argument: Any, *, joined: Mapping[JoinedRead, Sequence[Any]] | None = None
) -> Policy:
    """The first policy a source gives for this argument, else OPEN.

    `joined`: the values each joined read's columns had in the argument's row; a
    source whose read is there answers from them instead of reading again.
    """
    for source in _SOURCES:
        read = _JOINED.get(source)
        if joined is not None and read is not None and read in joined:
            found = read.policy(argument, joined[read])
        else:
            found = source(argument)
        if found is not None:
            return found
    return OPEN
