"""The issue's 1 to 3 attacks per persona: extras dropped and recorded, none is no objection."""

from __future__ import annotations

import pytest
from django.urls import reverse

from debates.models import Attack, AttackStatus, DropReason
from engine.models import DebateEvent, DebateStatus
from stresstests import services
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = [
    ("rebut", "claim", 0, "Bike lanes cost more than they save"),
    ("undermine", "premise", 0, "Those cities differ in many other ways"),
    ("undercut", "assumption", 0, "Fewer deaths per trip is not overall safety"),
    ("rebut", "claim", 0, "Buses would save more lives for the money"),
    ("undermine", "premise", 0, "The death counts are too small to compare"),
]


def _start(argument, user, personas):
    return settle(
        services.start_stress_test(
            argument=argument, user=user, persona_ids=[p.pk for p in personas]
        )
    )


def test_it_keeps_three_attacks_of_a_persona_and_records_the_rest_as_dropped(
    ada, finished_argument, personas, stress_model
) -> None:
    stress_model.attacks = {"The Empiricist": FIVE}
    stress = _start(finished_argument, ada, personas)

    rows = Attack.objects.filter(debate=stress.debate, speaker__name="The Empiricist")
    assert rows.count() == 5
    assert sorted(rows.filter(status=AttackStatus.VALID).values_list("position", flat=True)) == [
        0,
        1,
        2,
    ]
    over = rows.filter(status=AttackStatus.DROPPED, drop_reason=DropReason.OVER_LIMIT)
    assert sorted(over.values_list("position", flat=True)) == [3, 4]
    assert not over.filter(from_argument__isnull=False).exists()  # no node, no place in the graph
    generated = DebateEvent.objects.get(debate=stress.debate, type="attacks_generated").payload
    assert len(generated["attacks"]) == 3
    assert [a["drop_reason"] for a in generated["dropped"]] == ["over_limit", "over_limit"]
    assert len(stress.debate.output["attacks"]) == 3


def test_it_shows_a_persona_that_proposes_no_attack_as_raising_no_objection(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress_model.attacks["The Farmer"] = []
    stress = _start(finished_argument, ada, personas)

    assert stress.debate.status == DebateStatus.DONE
    assert not Attack.objects.filter(debate=stress.debate, speaker__name="The Farmer").exists()
    events = DebateEvent.objects.filter(debate=stress.debate)
    assert [e.payload["persona"] for e in events.filter(type="no_objection")] == ["The Farmer"]
    assert not events.filter(type="persona_failed").exists()  # not a failure
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "The Farmer found nothing to object to in your argument." in page
    assert "The Empiricist found nothing" not in page
