"""The budget stop while the student defends: plain words, the answer not left hanging."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.ledger import spent_usd
from engine.models import Debate, DebateEvent, DebateStatus
from engine.stop_reasons import StopReason
from stresstests import services
from stresstests.models import Defence, DefenceRefusal, DefenceStatus
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


def _defend(client, stress, key: str, text: str) -> str:
    response = client.post(
        reverse("stresstests:defend", args=[stress.pk]),
        {"attack": key, "answer": text},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    return response.content.decode()


def test_it_says_the_spending_limit_was_reached_and_marks_the_answer_not_checked(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress = settle(
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
        )
    )
    key = stress.debate.output["deciding"][0]
    # Nothing is left of the budget: the engine's budget stop comes before the answer's check.
    Debate.objects.filter(pk=stress.debate_id).update(
        budget_usd=spent_usd(debate_id=stress.debate_id)
    )

    _defend(client, stress, key, "Those cities were matched on income and density.")
    stress = settle(stress)

    debate = stress.debate
    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, StopReason.BUDGET)
    assert "DefenceVerdict" not in stress_model.requests
    defence = Defence.objects.get()
    assert (defence.status, defence.reason) == (DefenceStatus.UNCHECKED, DefenceRefusal.BUDGET)
    judged = DebateEvent.objects.filter(debate=debate, type="defence_judged").get()
    assert (judged.payload["status"], judged.payload["reason"]) == ("unchecked", "budget")
    assert debate.output["status"] == "defeated"  # the last computed status is kept

    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "reached its spending limit, so it stopped before checking everything" in page
    assert "Your claim is defeated as it stands" in page
    assert "start a new stress test of your argument, or ask your instructor" in page
    assert reverse("stresstests:start", args=[finished_argument.pk]) in page
    assert "Not checked: the stress test reached its spending limit before checking it." in page
    assert "Being checked" not in page and "a check could not be completed" not in page
    assert 'name="answer"' not in page  # no defend form

    replay = client.get(reverse("stresstests:replay", args=[stress.pk])).content.decode()
    assert "Those cities were matched on income and density." in replay
    assert "Not checked: the stress test reached its spending limit before checking it." in replay
    assert "reached its spending limit, so it stopped before checking everything" in replay

    refused = _defend(client, stress, key, "Another try.")
    assert "reached its spending limit, so it cannot check new answers" in refused
    assert "Wait until" not in refused
    assert Defence.objects.count() == 1
    assert Debate.objects.get(pk=debate.pk).status == DebateStatus.STOPPED


def test_a_stress_test_its_student_stopped_says_so_plainly(
    client, ada, finished_argument, personas, stress_model, monkeypatch
) -> None:
    from engine.orchestrator import run_debate
    from engine.services import request_stop

    monkeypatch.setattr(services, "launch", lambda debate_id: None)
    stress = services.start_stress_test(
        argument=finished_argument, user=ada, persona_ids=[p.pk for p in personas]
    )
    running = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert reverse("engine:stop", args=[stress.debate_id]) in running

    request_stop(debate_id=stress.debate_id, user=ada)
    run_debate(debate_id=stress.debate_id)

    debate = Debate.objects.get(pk=stress.debate_id)
    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, "STOPPED_ON_REQUEST")
    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()
    assert "You stopped this stress test. Everything computed so far is kept." in page
    assert "a check could not be completed" not in page
    assert reverse("engine:stop", args=[stress.debate_id]) not in page
