"""The engine's stop reasons are its own; each format declares what it may conclude.

Stored values are the strings they always were (no data migration), and the
run's ``stop_reason`` takes its choices from the registry, so a format's new
reason needs no migration either.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation

from debates.graph_format import GRAPH
from debates.stopping import GraphStopReason
from engine import stop_reasons
from engine.formats import FormatError, check_format
from engine.models import Debate
from engine.stop_reasons import StopReason, register_stop_reasons, stop_reason_choices
from inquiries.format import INQUIRY

# What Debate.stop_reason held before the formats declared their own reasons.
STORED_BEFORE = {
    "BUDGET",
    "STOPPED_ON_REQUEST",
    "CRITICAL_DEFECT",
    "MAX_ROUNDS",
    "CONSENSUS",
    "STABLE_DISSENT",
    "EVIDENCE_EXHAUSTED",
}


def test_it_keeps_only_the_engines_reasons_in_the_engine():
    assert set(StopReason.values) == {
        "BUDGET",
        "STOPPED_ON_REQUEST",
        "CRITICAL_DEFECT",
        "MAX_ROUNDS",
    }
    assert set(GraphStopReason.values) == {"CONSENSUS", "STABLE_DISSENT", "EVIDENCE_EXHAUSTED"}
    assert dict(GRAPH.stop_reasons) == dict(GraphStopReason.choices)
    assert {value for value, _ in INQUIRY.stop_reasons} == set(GraphStopReason.values)


def test_it_offers_every_stored_value_as_a_choice():
    values = [value for value, _ in stop_reason_choices()]
    assert set(values) == STORED_BEFORE and len(values) == len(STORED_BEFORE)
    field = Debate._meta.get_field("stop_reason")
    assert {value for value, _ in field.choices} == STORED_BEFORE


def test_it_says_a_formats_reason_in_the_readers_language():
    debate = Debate(stop_reason="STABLE_DISSENT")
    with translation.override("en"):
        assert debate.get_stop_reason_display() == "stable dissent"
    with translation.override("es"):
        spanish = debate.get_stop_reason_display()
    assert spanish not in ("stable dissent", "STABLE_DISSENT")


def test_it_refuses_a_format_that_claims_an_engine_reason():
    with pytest.raises(FormatError, match="'BUDGET' is the engine's own"):
        check_format(GRAPH.__class__(**{**vars(GRAPH), "stop_reasons": (("BUDGET", "budget"),)}))
    too_long = (("A_REASON_LONGER_THAN_THE_COLUMN", "long"),)
    with pytest.raises(FormatError, match="not 1 to 20 characters"):
        check_format(GRAPH.__class__(**{**vars(GRAPH), "stop_reasons": too_long}))


def test_it_refuses_a_reason_worded_two_ways(monkeypatch):
    monkeypatch.setattr(stop_reasons, "_REASONS", dict(stop_reasons._REASONS))
    register_stop_reasons([("CONSENSUS", "consensus")])  # the same words: one reason, shared
    with pytest.raises(ValueError, match="another label"):
        register_stop_reasons([("CONSENSUS", "everyone agreed")])


@pytest.mark.django_db
def test_it_needs_no_migration_for_a_formats_new_reason(monkeypatch):
    monkeypatch.setattr(stop_reasons, "_REASONS", dict(stop_reasons._REASONS))
    register_stop_reasons([("STALEMATE", "stalemate")])
    assert "STALEMATE" in dict(Debate._meta.get_field("stop_reason").choices)
    call_command("makemigrations", "engine", "--check", "--dry-run", verbosity=0)
