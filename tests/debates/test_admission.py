"""One admission for every paid format: the cap on runs queued or running holds across them.

Each format is started through its real service (the function its page
calls); inside the test's transaction nothing launches, so every admitted
run stays queued and keeps its place under the cap.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from casefiles.demo import load_demo_case_file
from debates.services import create_debate
from engine.admission import admit_run
from engine.models import Debate, DebateStatus
from inquiries.services import create_inquiry
from limits.services import LimitReached
from stresstests.models import StressTest
from stresstests.services import StressError, defend, start_stress_test
from tests.debates.factories import default_personas
from tests.trials.factories import make_argument
from tournaments.services import create_tournament

pytestmark = pytest.mark.django_db

PRICE = {"input": Decimal("1"), "output": Decimal("5")}


@pytest.fixture
def ana(django_user_model, fake_anthropic, settings):
    settings.MAX_RUNNING_DEBATES_PER_USER = 2
    settings.QUOTA_DAILY_USD = settings.QUOTA_MONTHLY_USD = Decimal(0)  # the cap alone
    settings.LLM_PRICES = {**settings.LLM_PRICES, "alpha-1": PRICE, "beta-1": PRICE}
    settings.TOURNAMENT_SEMANTIC = ""
    return django_user_model.objects.create_user("ana")


def _debate(user) -> Debate:
    personas = default_personas(2)
    return create_debate(
        topic="Homework should be abolished",
        persona_ids=[p.pk for p in personas],
        max_rounds=1,
        budget_usd=Decimal("0.5"),
        creator=user,
    )


def _inquiry(user) -> Debate:
    case_file = load_demo_case_file(owner=user)
    return create_inquiry(
        user=user, question="Should our city adopt congestion pricing?", case_file_id=case_file.pk
    )


def _tournament(user) -> Debate:
    tournament = create_tournament(
        user=user,
        question="Should our city adopt congestion pricing or a car ban?",
        decision_type="policy",
        models=["alpha-1", "beta-1"],
        budget_usd=Decimal("5"),
        launch_now=False,
    )
    return tournament.debate


def _stress_test(user) -> Debate:
    personas = default_personas(2)
    argument = make_argument(owner=user)
    stress = start_stress_test(argument=argument, user=user, persona_ids=[p.pk for p in personas])
    return stress.debate


FORMATS = {
    "debate": _debate,
    "inquiry": _inquiry,
    "tournament": _tournament,
    "stress": _stress_test,
}


@pytest.mark.parametrize("filler", list(FORMATS))
def test_it_refuses_every_format_once_one_format_holds_the_cap(ana, filler) -> None:
    held = [FORMATS[filler](ana), FORMATS[filler](ana)]
    assert {run.status for run in held} == {DebateStatus.QUEUED}

    for name, start in FORMATS.items():
        with pytest.raises((LimitReached, StressError)) as refused:
            start(ana)
        message = str(getattr(refused.value, "message", refused.value))
        assert "You already have 2 AI runs queued or running" in message, name
        if isinstance(refused.value, LimitReached):
            assert refused.value.code == "too_many_running"
    assert Debate.objects.filter(creator=ana).count() == 2
    assert StressTest.objects.count() == (2 if filler == "stress" else 0)


def test_it_admits_the_next_run_once_one_finishes(ana) -> None:
    first, _second = _stress_test(ana), _debate(ana)
    with pytest.raises(LimitReached):
        _inquiry(ana)

    Debate.objects.filter(pk=first.pk).update(status=DebateStatus.DONE)

    assert _inquiry(ana).status == DebateStatus.QUEUED


def test_it_holds_an_answer_to_a_stress_test_to_the_cap(ana) -> None:
    stress = StressTest.objects.get(debate=_stress_test(ana))
    Debate.objects.filter(pk=stress.debate_id).update(status=DebateStatus.DONE)
    _debate(ana), _debate(ana)

    with pytest.raises(StressError, match="You already have 2 AI runs queued or running"):
        defend(stress=stress, attack_key="a1", text="Narrow streets can share one lane.")
    assert not stress.defences.exists()
    assert Debate.objects.get(pk=stress.debate_id).status == DebateStatus.DONE


def test_it_words_the_refusal_in_spanish(ana) -> None:
    _debate(ana), _debate(ana)

    with translation.override("es"), pytest.raises(LimitReached) as refused:
        admit_run(user=ana, action="debate", reserve_usd=Decimal("0.5"))

    assert "Ya tienes 2 ejecuciones de IA en cola o en curso" in str(refused.value.message)


def test_it_lets_an_operator_without_a_user_through(ana) -> None:
    _debate(ana), _debate(ana)

    admit_run(user=None, action="tournament", reserve_usd=Decimal("5"))  # no exception
