"""Formats: what differs between the runs that share ONE engine.

The engine (engine/orchestrator.py, claiming.py, calls.py + ledger.py,
events.py, sse.py, tasks.py) claims a ``Debate`` row with a lease, walks its
stages, pays each model call once (the ledger replays by request hash), and
commits each stage — its rows, its events and its ``StageRun`` — in one
transaction, so a killed worker resumes at the first stage not saved. None of
that depends on *what* is being debated. A ``Format`` is the rest:

- ``stages``: name -> a :class:`engine.stages.Stage` (``specs`` and
  ``commit``; its ``name`` is its key);
- ``event_types``: the event types its stages and hooks record, besides the
  engine's own (engine/event_types.py); the engine records no other for a run
  of this format (engine/events.py);
- ``next_stage(debate, state, done)``: the next (name, round) to run, given
  the set of (name, round) already in ``StageRun``; None when there is no
  more (the engine then ends the run with MAX_ROUNDS). A static plan is the
  simplest case (:func:`from_plan`); a format whose route depends on what
  happened (an inquiry's conditional evidence retrieval, a tournament's
  bracket) reads it from the state;
- ``load_state`` / ``state_hash``: the saved rows as immutable values, and
  their sha256 for the ``StageRun`` audit (input hash = previous output hash);
- ``final_output`` / ``start_payload``: the stored outcome and the
  ``debate_start`` payload;
- ``stop_reasons``: why a run of it may end that is its own (what it
  concluded: the graph debate's consensus), with labels; the engine's reasons
  (budget, stopped on request, maximum rounds, critical defect:
  engine/stop_reasons.py) are every format's;
- optional hooks: ``after_stage`` (inside the stage's transaction, after its
  ``StageRun`` row: an audit record), ``on_finish`` (inside the finishing
  transaction, before ``debate_complete``: extra events or rows) and
  ``final_status``.

What pages say about any run comes from here too, since only the registry
knows its format: :func:`format_label` (the format's name for people) and
:func:`page_url` (the page that shows it), also as the template filters
``{{ run|format_label }}`` and ``{{ run|page_url }}`` (engine/templatetags/runs.py).
The run's model (engine/models.py) knows neither, so the models import no
registry and the registry, its stages' contract and the models form no circle.

Apps register their format in ``AppConfig.ready`` (the graph debate in
debates/apps.py), so the engine imports none of them; :func:`register_format`
checks the declaration (stages that keep the contract, event types and stop
reasons that are the format's own) and refuses a wrong one with :class:`FormatError`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from engine.event_types import ENGINE_EVENT_TYPES, EVENT_TYPE_PATTERN
from engine.stages import Stage
from engine.stop_reasons import MAX_LENGTH as STOP_REASON_LENGTH
from engine.stop_reasons import StopReason, register_stop_reasons

__all__ = [
    "Format",
    "FormatError",
    "check_format",
    "format_label",
    "formats",
    "from_plan",
    "get_format",
    "page_url",
    "register_format",
]

# (debate, state, done) -> (stage name, round) or None
NextStage = Callable[[Any, Any, frozenset], "tuple[str, int] | None"]


@dataclass(frozen=True)
class Format:
    name: str
    label: Any  # a (lazily) translated name for pages
    stages: Mapping[str, Stage]
    next_stage: NextStage
    load_state: Callable[[Any], Any]
    state_hash: Callable[[Any], str]
    final_output: Callable[..., dict]
    start_payload: Callable[[Any], dict]
    after_stage: Callable[..., None] | None = None
    on_finish: Callable[..., None] | None = None
    final_status: Callable[[Any], str] | None = None
    # The page that shows a debate of this format (its live page while it
    # runs, its result once finished): debate -> URL.
    page_url: Callable[[Any], str] | None = None
    # A format with its own replay page (the stress test): debate -> URL; the
    # debates replay redirects there. None: the debates dashboard replays it.
    replay_url: Callable[[Any], str] | None = None
    # How the format's list page and a student's own page name it: a plural
    # heading ("Inquiries"), one sentence saying what the list holds, and the
    # button that starts a new one (its words and a callable -> URL). None:
    # the graph debate's words, and no button.
    plural_label: Any = None
    about: Any = None
    new_label: Any = None
    new_url: Callable[[], str] | None = None
    # The event types its stages and hooks record (the engine's own come on top).
    event_types: tuple[str, ...] = ()
    # Why a run of it may end that is its own (value, label): what it concluded.
    # The engine's reasons (engine/stop_reasons.StopReason) come on top.
    stop_reasons: tuple[tuple[str, Any], ...] = ()


class FormatError(ValueError):
    """A format's declaration breaks the engine's contract (raised when it registers)."""


def check_format(fmt: Format) -> None:
    """Raise :class:`FormatError` naming what is wrong with a format's declaration."""
    problems = []
    if not fmt.stages:
        problems.append("it has no stage")
    for key, stage in fmt.stages.items():
        if not isinstance(stage, Stage):
            problems.append(f"stage {key!r} lacks name, specs() or commit()")
        elif stage.name != key:
            problems.append(f"stage {key!r} is named {stage.name!r}")
    for event_type in fmt.event_types:
        if not isinstance(event_type, str) or not EVENT_TYPE_PATTERN.fullmatch(event_type):
            problems.append(f"event type {event_type!r} is not a short lower-case name")
        elif event_type in ENGINE_EVENT_TYPES:
            problems.append(f"event type {event_type!r} is the engine's own")
    if len(set(fmt.event_types)) != len(fmt.event_types):
        problems.append("an event type is declared twice")
    for value, _label in fmt.stop_reasons:
        if value in StopReason.values:
            problems.append(f"stop reason {value!r} is the engine's own")
        elif not 0 < len(str(value)) <= STOP_REASON_LENGTH:
            problems.append(f"stop reason {value!r} is not 1 to {STOP_REASON_LENGTH} characters")
    if problems:
        raise FormatError(f"format {fmt.name!r}: " + "; ".join(problems))


_FORMATS: dict[str, Format] = {}


def register_format(fmt: Format) -> None:
    """Make a format runnable once its declaration is checked; the same name again replaces it.

    Its stop reasons join the engine's as ``Debate.stop_reason``'s choices.
    """
    check_format(fmt)
    register_stop_reasons(fmt.stop_reasons)
    _FORMATS[fmt.name] = fmt


def get_format(name: str) -> Format:
    """The registered format; KeyError for an unknown name."""
    return _FORMATS[name]


def formats() -> list[Format]:
    return list(_FORMATS.values())


def format_label(debate: Any) -> str:
    """The run's format as pages name it ("Inquiry"); an unregistered format by its stored name."""
    try:
        return str(get_format(debate.format).label)
    except KeyError:
        return debate.format


def page_url(debate: Any) -> str:
    """Where people look at a run: its format's page (live while it runs, its result after).

    A run whose format is not registered (its app was removed) or declares no
    page is found in the runs history, filtered to its format.
    """
    try:
        format_page = get_format(debate.format).page_url
    except KeyError:
        format_page = None
    if format_page is not None:
        return format_page(debate)
    return f"{reverse('engine:runs')}?{urlencode({'format': debate.format})}"


def from_plan(plan: Callable[[Any], list[tuple[str, int]]]) -> NextStage:
    """``next_stage`` for a format whose route is data: a fixed list of (stage, round) per run."""

    def next_stage(debate, state, done: frozenset) -> tuple[str, int] | None:
        for step in plan(debate):
            if step not in done:
                return step
        return None

    return next_stage
