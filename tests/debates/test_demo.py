"""The demo debate fixture: loads once, is labelled, and is consistent with its own graph."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.demo import DEMO_FIXTURE, import_debate
from debates.exports import debate_json
from debates.graph import snapshot
from debates.state import load_state
from engine.models import Debate
from tests.debates.pages_support import finished_debate

pytestmark = pytest.mark.django_db


def load() -> str:
    out = StringIO()
    call_command("load_demo_debate", stdout=out)
    return out.getvalue()


def test_it_loads_the_demo_once() -> None:
    assert "[loaded]" in load()
    assert "[already there]" in load()
    demo = Debate.objects.get()
    assert demo.is_demo and demo.creator is None
    counts = (demo.arguments.count(), demo.attacks.count(), demo.events.count())
    load()
    demo.refresh_from_db()
    assert (demo.arguments.count(), demo.attacks.count(), demo.events.count()) == counts
    assert Debate.objects.count() == 1


def test_it_ships_a_demo_whose_outcome_matches_its_graph() -> None:
    load()
    demo = Debate.objects.get()
    data = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))
    assert demo.is_finished and demo.output == data["output"]
    # The stored outcome is what the semantics say about the stored rows.
    assert snapshot(load_state(demo)).labels == demo.output["labels"]
    assert demo.event_seq == demo.events.count() == len(data["events"])
    assert demo.events.order_by("-seq").first().type == "debate_complete"
    assert demo.output["cruxes"], "a demo should show crux assumptions"


def test_it_lets_a_newcomer_open_the_demo_history_result_and_replay(client) -> None:
    load()
    demo = Debate.objects.get()
    newcomer = get_user_model().objects.create_user("newcomer", password="a-long-enough-pass")
    client.force_login(newcomer)
    listing = client.get("/debates/").content.decode()
    assert demo.topic in listing and 'class="badge demo"' in listing
    for suffix in ("", "replay/", "live/"):
        page = client.get(f"/debates/{demo.pk}/{suffix}").content.decode()
        assert "demo debate shipped with Argue" in page
    result = client.get(f"/debates/{demo.pk}/").content.decode()
    for crux in demo.output["cruxes"]:
        assert crux["settlingQuestion"].replace('"', "&quot;") in result


def without_ids(argument: dict) -> dict:
    return {k: v for k, v in argument.items() if k not in ("origin_attack", "speaker_id")}


def test_it_round_trips_a_debate_through_its_json_export(fake_anthropic) -> None:
    original = finished_debate(fake_anthropic, personas=2, rounds=2)
    exported = debate_json(debate=original)
    copy = import_debate(data=exported, is_demo=False)
    assert copy.pk != original.pk
    again = debate_json(debate=copy)
    # Everything but database ids is the same debate.
    assert again["output"] == exported["output"]
    assert again["framework"] == exported["framework"]
    assert [without_ids(a) for a in again["arguments"]] == [
        without_ids(a) for a in exported["arguments"]
    ]
    assert [(e["seq"], e["type"]) for e in again["events"]] == [
        (e["seq"], e["type"]) for e in exported["events"]
    ]
    assert [t["status"] for t in again["attacks"]] == [t["status"] for t in exported["attacks"]]
    assert again["debate"]["cost_usd"] == exported["debate"]["cost_usd"]
    assert len(again["calls"]) == len(exported["calls"])
