"""The validation event's attacks are built from the debate's state, not read back: they must
say exactly what the rows say (debates/payloads.py, the Validation stage)."""

from __future__ import annotations

import pytest

from debates import events
from debates.models import Attack
from debates.payloads import attack_payload, attack_view_payload, validation_payload
from debates.state import load_state
from engine.models import Debate, DebateStatus
from engine.orchestrator import run_debate
from tests.debates.factories import make_debate
from tests.fakes.debate_model import FakeDebateModel

pytestmark = pytest.mark.django_db


def test_it_says_of_each_judged_attack_what_its_row_says(fake_anthropic) -> None:
    fake_anthropic.responder = FakeDebateModel()
    debate = make_debate(personas=3, rounds=2)

    run_debate(debate_id=debate.pk)

    debate = Debate.objects.get(pk=debate.pk)
    assert debate.status in (DebateStatus.DONE, DebateStatus.STOPPED)
    judged = [
        attack
        for event in debate.events.filter(type=events.VALIDATION_COMPLETE).order_by("seq")
        for attack in event.payload["attacks"]
    ]
    assert judged, "the fake model's debate judged no attack"
    rows = Attack.objects.select_related(
        "speaker", "from_argument", "to_argument", "validation"
    ).in_bulk()
    for shown in judged:
        row = rows[shown["id"]]
        assert shown == validation_payload(row, getattr(row, "validation", None))
    assert {a["status"] for a in judged} >= {"valid"}
    # And every attack of the state read back afterwards, judged or not, as its row.
    for view in load_state(debate).attacks:
        assert attack_view_payload(view) == attack_payload(rows[view.id])
