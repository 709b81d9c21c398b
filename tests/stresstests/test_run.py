"""End to end through the real SDK against the fake Anthropic server."""

from __future__ import annotations

import pytest
from django.urls import reverse

from debates.models import Attack, AttackStatus
from engine.models import DebateEvent, DebateStatus, LLMCall, StageRun
from stresstests import services
from stresstests.models import Defence, DefenceStatus
from tests.stresstests.conftest import GROUNDS
from tests.stresstests.support import settle

pytestmark = pytest.mark.django_db(transaction=True)


def _start(argument, user, personas):
    stress = services.start_stress_test(
        argument=argument, user=user, persona_ids=[p.pk for p in personas]
    )
    return settle(stress)


def _key(stress, persona_name: str) -> str:
    attack = Attack.objects.get(debate=stress.debate, speaker__name=persona_name)
    return attack.from_argument.key


def _defend(client, stress, key: str, text: str):
    response = client.post(
        reverse("stresstests:defend", args=[stress.pk]),
        {"attack": key, "answer": text},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    return settle(stress)


def test_it_runs_the_personas_attacks_on_the_shared_engine(
    ada, finished_argument, personas, stress_model
) -> None:
    stress = _start(finished_argument, ada, personas)

    debate = stress.debate
    assert debate.format == "stress" and debate.status == DebateStatus.DONE
    assert list(StageRun.objects.filter(debate=debate).values_list("name", "round")) == [
        ("student", 0),
        ("attacks", 1),
        ("validation", 1),
        ("concessions", 1),
    ]
    # One call per persona, one validation batch, one concession check.
    assert sorted(stress_model.requests) == sorted(
        ["PersonaAttacks"] * 3 + ["AttackValidations", "ConcessionVerdicts"]
    )
    assert Attack.objects.filter(debate=debate, status=AttackStatus.VALID).count() == 3
    assert LLMCall.objects.filter(debate=debate).count() == 5
    output = debate.output
    assert output["status"] == "defeated"
    # The undermine and the undercut decide; the conceded exception is answered.
    assert set(output["deciding"]) == {_key(stress, "The Empiricist"), _key(stress, "The Skeptic")}
    assert output["answered_by_rebuttal"] == [_key(stress, "The Farmer")]
    types = list(DebateEvent.objects.filter(debate=debate).values_list("type", flat=True))
    assert types[0] == "debate_start" and types[-1] == "debate_complete"
    assert "concessions_checked" in types and "stress_status" in types


def test_it_shows_an_attack_matching_a_conceded_exception_as_answered(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress = _start(finished_argument, ada, personas)

    page = client.get(reverse("stresstests:detail", args=[stress.pk])).content.decode()

    assert "Your claim is defeated as it stands" in page
    assert "Already answered by your rebuttal" in page
    farmer = _key(stress, "The Farmer")
    assert f'name="attack" value="{farmer}"' not in page  # nothing left to defend there


def test_it_flips_the_claim_from_out_to_in_when_the_student_defends(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress = _start(finished_argument, ada, personas)

    stress = _defend(client, stress, _key(stress, "The Empiricist"), "Those cities were matched.")
    assert stress.debate.output["status"] == "defeated"  # the undercut still holds
    stress = _defend(client, stress, _key(stress, "The Skeptic"), "Deaths are what safety means.")

    assert stress.debate.status == DebateStatus.DONE
    assert stress.debate.output["status"] == "grounded_in"
    assert stress.debate.output["deciding"] == []
    assert list(Defence.objects.values_list("status", flat=True)) == ["accepted", "accepted"]
    assert StageRun.objects.filter(debate=stress.debate, name="defence").count() == 2
    page = client.get(reverse("stresstests:status", args=[stress.pk])).content.decode()
    assert "Your claim stands against every objection raised" in page


def test_it_refuses_a_restatement_with_its_reason(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress = _start(finished_argument, ada, personas)

    stress = _defend(client, stress, _key(stress, "The Empiricist"), GROUNDS)

    defence = Defence.objects.get()
    assert defence.status == DefenceStatus.REFUSED and defence.reason == "restatement"
    assert stress.debate.output["status"] == "defeated"
    page = client.get(reverse("stresstests:status", args=[stress.pk])).content.decode()
    assert "it only restates what the objection denies" in page
    assert "repeats your own point" in page


def test_it_refuses_to_start_with_too_few_personas(ada, finished_argument, personas) -> None:
    with pytest.raises(services.StressError):
        services.start_stress_test(
            argument=finished_argument, user=ada, persona_ids=[personas[0].pk]
        )


def test_it_lets_the_persona_answer_back_once_and_the_student_answer_again(
    client, ada, finished_argument, personas, stress_model
) -> None:
    stress_model.replies["The Skeptic"] = "Safety also means fewer injuries, not only deaths"
    stress = _start(finished_argument, ada, personas)
    stress = _defend(client, stress, _key(stress, "The Empiricist"), "Those cities were matched.")
    stress = _defend(client, stress, _key(stress, "The Skeptic"), "Deaths are what safety means.")

    # The Skeptic answered back and the referee found it valid: the defence is OUT again.
    reply = Attack.objects.get(debate=stress.debate, speaker__name="The Skeptic", round=3)
    assert reply.status == AttackStatus.VALID
    assert stress.debate.output["status"] == "defeated"
    assert stress.debate.output["replies"] == [{"key": reply.from_argument.key, "answers": "D2"}]
    page = client.get(reverse("stresstests:status", args=[stress.pk])).content.decode()
    assert "The Skeptic answers back" in page
    assert f'name="attack" value="{reply.from_argument.key}"' in page

    stress = _defend(client, stress, reply.from_argument.key, "Injuries fell there too.")

    # The student's answer to the answer back counts; the Skeptic answered back
    # once more (round 3 of 3 of this thread), so the claim is defeated again.
    assert stress.debate.output["status"] == "defeated"
    assert len(stress.debate.output["replies"]) == 2
    page = client.get(reverse("stresstests:status", args=[stress.pk])).content.decode()
    second = stress.debate.output["replies"][1]["key"]
    assert f'name="attack" value="{second}"' in page  # the third answer of this thread
    stress = _defend(client, stress, second, "Injury counts fell in every study too.")
    assert stress.debate.output["status"] == "grounded_in"
    page = client.get(reverse("stresstests:status", args=[stress.pk])).content.decode()
    assert 'name="attack"' not in page  # the round limit: no more answering back
    steps = list(StageRun.objects.filter(debate=stress.debate).values_list("name", "round"))
    assert steps[4:] == [
        ("defence", 1),
        ("reply", 1),
        ("defence", 2),
        ("reply", 2),
        ("validation", 3),
        ("defence", 3),
        ("reply", 3),
        ("validation", 4),
        ("defence", 4),
    ]
