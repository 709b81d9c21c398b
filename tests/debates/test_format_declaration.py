"""A format declares itself once, typed, and the engine checks it when it registers.

Its stages keep the ``engine.stages.Stage`` contract under their own names, and
its event types are its own; a run records no event type its format did not
declare.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.db import transaction

from debates import events as graph_events
from engine.event_types import DEBATE_COMPLETE, ENGINE_EVENT_TYPES
from engine.events import record_event
from engine.formats import FormatError, check_format, formats, get_format
from engine.models import Debate
from engine.stages import Stage
from tournaments.events import MATCH_STARTED


class _NoCommit:
    name = "half"

    def specs(self, *, state, round, cheap_model):
        return []


def test_it_accepts_every_registered_format_with_typed_stages_and_its_own_events() -> None:
    registered = {fmt.name: fmt for fmt in formats()}
    assert {"graph", "inquiry", "tournament", "stress"} <= set(registered)
    for fmt in registered.values():
        check_format(fmt)
        assert all(isinstance(stage, Stage) for stage in fmt.stages.values())
        assert fmt.event_types and not set(fmt.event_types) & ENGINE_EVENT_TYPES


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"stages": {"half": _NoCommit()}}, "lacks name, specs() or commit()"),
        ({"stages": {"renamed": get_format("graph").stages["decompose"]}}, "is named"),
        ({"stages": {}}, "has no stage"),
        ({"event_types": (DEBATE_COMPLETE,)}, "the engine's own"),
        ({"event_types": ("Graph Update",)}, "short lower-case name"),
        ({"event_types": ("x" * 31,)}, "short lower-case name"),
        ({"event_types": ("twice", "twice")}, "declared twice"),
    ],
)
def test_it_refuses_a_format_that_breaks_the_contract(change: dict, problem: str) -> None:
    with pytest.raises(FormatError, match=re.escape(problem)):
        check_format(replace(get_format("graph"), name="broken", **change))


@pytest.mark.django_db
def test_it_refuses_to_record_an_event_type_the_runs_format_did_not_declare() -> None:
    graph = Debate.objects.create(topic="t", format="graph")
    tournament = Debate.objects.create(topic="t", format="tournament")
    with transaction.atomic():
        record_event(debate=graph, type=graph_events.GRAPH_UPDATE, payload={})
        record_event(debate=tournament, type=MATCH_STARTED, payload={})
        record_event(debate=tournament, type=DEBATE_COMPLETE, payload={})
        with pytest.raises(ValueError, match="not an event type of the format 'graph'"):
            record_event(debate=graph, type=MATCH_STARTED, payload={})
        with pytest.raises(ValueError, match="'tournament'"):
            record_event(debate=tournament, type=graph_events.GRAPH_UPDATE, payload={})
        with pytest.raises(ValueError):
            record_event(debate=graph, type="made_up", payload={})
    assert list(graph.events.values_list("type", flat=True)) == [graph_events.GRAPH_UPDATE]
