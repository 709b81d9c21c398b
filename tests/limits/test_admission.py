"""Limits refuse before any paid call: debates, trials and coach turns, through their real entry points.

The fake Anthropic server records every request it gets; a refused action
must leave it empty, store nothing that counts, and say when it renews.
"""

from __future__ import annotations

import html
import re
import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from coach.models import CoachMessage, CoachTurn
from coach.services import create_argument
from engine.models import Debate, DebateStatus
from limits.services import LimitReached, admit
from tests.coach.support import post_turn
from tests.debates.factories import default_personas
from tests.trials.factories import make_argument
from trials.models import Trial, TrialStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana")


@pytest.fixture
def ana_client(ana) -> Client:
    client = Client()
    client.force_login(ana)
    return client


@pytest.fixture
def quota(settings):
    settings.QUOTA_DAILY_USD = Decimal("5")
    settings.QUOTA_MONTHLY_USD = Decimal("50")
    settings.LIMITS_EXEMPT_STAFF = False  # the budget tests' staff are held to it too
    return settings


def _chooses_budgets(user) -> None:
    """Only staff choose a debate's budget (a student's is set from the estimate)."""
    user.is_staff = True
    user.save(update_fields=["is_staff"])


def _new_debate(client: Client, *, budget: str) -> str:
    personas = default_personas(2)
    response = client.post(
        "/debates/new/",
        {
            "topic": "Homework should be abolished",
            "personas": [p.pk for p in personas],
            "max_rounds": 1,
            "budget_usd": budget,
        },
    )
    return response


def _spent_today(owner, cost: str) -> None:
    argument = create_argument(owner=owner, title="Earlier work", language="en")
    CoachTurn.objects.create(argument=argument, step="claim", cost_usd=Decimal(cost))


def _next_midnight():
    now = timezone.localtime()
    return (now + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)


# --- debates -----------------------------------------------------------------


def test_it_refuses_a_debate_whose_budget_exceeds_the_quota(
    ana, ana_client, fake_anthropic, quota
) -> None:
    _chooses_budgets(ana)
    response = _new_debate(ana_client, budget="50")

    assert response.status_code == 200
    body = response.content.decode()
    assert "more than the whole AI allowance ($5.00)" in body
    assert "Choose a smaller budget: $5.00 is left now." in body
    assert not Debate.objects.exists()
    assert fake_anthropic.message_requests == []


def test_it_reserves_a_started_debates_budget_against_the_quota(
    ana, ana_client, fake_anthropic, quota
) -> None:
    _chooses_budgets(ana)
    # Inside the test's transaction the debate never starts: it stays queued,
    # and its whole budget is what it may still cost.
    first = _new_debate(ana_client, budget="3")
    assert first.status_code == 302
    second = _new_debate(ana_client, budget="3")

    assert second.status_code == 200
    assert "only $2.00 is left" in second.content.decode()
    assert Debate.objects.count() == 1
    assert _new_debate(ana_client, budget="2").status_code == 302
    assert fake_anthropic.message_requests == []


def test_it_caps_the_debates_a_student_runs_at_once(
    ana, ana_client, fake_anthropic, settings
) -> None:
    settings.MAX_RUNNING_DEBATES_PER_USER = 2
    assert _new_debate(ana_client, budget="0.5").status_code == 302
    assert _new_debate(ana_client, budget="0.5").status_code == 302

    refused = _new_debate(ana_client, budget="0.5")

    assert refused.status_code == 200
    assert "You already have 2 AI runs queued or running" in refused.content.decode()
    assert Debate.objects.filter(creator=ana).count() == 2
    Debate.objects.filter(creator=ana).update(status=DebateStatus.RUNNING)
    Debate.objects.filter(pk=Debate.objects.filter(creator=ana).first().pk).update(
        status=DebateStatus.DONE
    )
    assert _new_debate(ana_client, budget="0.5").status_code == 302


def test_it_rate_limits_new_debates_and_says_when_it_resets(
    ana, ana_client, fake_anthropic, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "debate": (2, 3600)}
    settings.MAX_RUNNING_DEBATES_PER_USER = 0  # this test is about the rate alone
    assert _new_debate(ana_client, budget="0.1").status_code == 302
    assert _new_debate(ana_client, budget="0.1").status_code == 302

    refused = _new_debate(ana_client, budget="0.1")

    body = refused.content.decode()
    assert refused.status_code == 200
    assert "the limit for new debates: 2 per hour" in body
    assert "You can go on in " in body
    assert Debate.objects.filter(creator=ana).count() == 2


def test_it_exempts_staff_from_quota_and_rate(django_user_model, fake_anthropic, settings) -> None:
    settings.QUOTA_DAILY_USD = Decimal("1")
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "debate": (1, 3600)}
    teacher = django_user_model.objects.create_user("teacher", is_staff=True)
    for _ in range(3):
        admit(user=teacher, action="debate", reserve_usd=Decimal("40"))
    settings.LIMITS_EXEMPT_STAFF = False
    with pytest.raises(LimitReached):
        admit(user=teacher, action="debate", reserve_usd=Decimal("40"))


def test_it_holds_a_debate_retry_to_the_quota_and_the_cap(
    ana, ana_client, fake_anthropic, quota
) -> None:
    failed = Debate.objects.create(
        topic="Trams", creator=ana, status=DebateStatus.FAILED, cost_usd="1", budget_usd="5"
    )
    _spent_today(ana, "2")  # with the failed debate's $1: $2 left, and the retry needs $4

    refused = ana_client.post(f"/debates/{failed.pk}/retry/", follow=True)

    assert "only $2.00 is left" in refused.content.decode()
    assert Debate.objects.get(pk=failed.pk).status == DebateStatus.FAILED
    assert fake_anthropic.message_requests == []


# --- trials --------------------------------------------------------------------


def test_it_refuses_a_trial_over_the_quota_before_any_model_call(
    ana, ana_client, fake_anthropic, quota
) -> None:
    _spent_today(ana, "4.95")  # less than one trial's reserve is left
    argument = make_argument(owner=ana)

    response = ana_client.post(f"/trials/argument/{argument.pk}/", follow=True)

    body = response.content.decode()
    assert "This needs up to $" in body and "only $0.05 is left" in body
    assert not Trial.objects.exists()
    assert fake_anthropic.message_requests == []


def test_it_rate_limits_trial_questions(ana, ana_client, fake_anthropic, settings) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "trial": (1, 3600)}
    assert ana_client.post("/trials/ask/", {"question": "Free trams?"}).status_code == 302

    refused = ana_client.post("/trials/ask/", {"question": "Free buses?"})

    assert refused.status_code == 200
    assert "the limit for new trials: 1 per hour" in refused.content.decode()
    assert Trial.objects.count() == 1


def test_it_holds_a_trial_retry_to_the_quota(ana, ana_client, fake_anthropic, quota) -> None:
    failed = Trial.objects.create(owner=ana, query="Q", status=TrialStatus.FAILED, cost_usd="0")
    _spent_today(ana, "5")

    refused = ana_client.post(f"/trials/{failed.pk}/retry/", follow=True)

    assert "You have used today's AI allowance" in html.unescape(refused.content.decode())
    assert Trial.objects.get(pk=failed.pk).status == TrialStatus.FAILED
    assert fake_anthropic.message_requests == []


# --- coach turns ---------------------------------------------------------------
# The coach endpoint is async: its database work runs in another thread, on
# another connection, which only sees committed rows.


@pytest.mark.django_db(transaction=True)
def test_it_refuses_a_coach_turn_over_the_quota_before_the_model_is_asked(
    ana, fake_anthropic, quota
) -> None:
    _spent_today(ana, "5")
    argument = create_argument(owner=ana, title="Trams", language="en")

    status, _, lines = post_turn(
        ana, argument_id=argument.pk, message="Trams should be free.", step="claim"
    )

    assert status == 429
    (answer,) = lines
    assert answer["error"] == "quota_exceeded"
    assert "You have used today's AI allowance. It renews in " in answer["detail"]
    assert parse_datetime(answer["retry_at"]) == _next_midnight()
    assert fake_anthropic.message_requests == []
    assert not CoachMessage.objects.filter(argument=argument).exists()  # nothing stored


@pytest.mark.django_db(transaction=True)
def test_it_rate_limits_coach_turns_with_the_time_it_resets(
    ana, no_anthropic_key, settings
) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "coach_turn": (2, 60)}
    argument = create_argument(owner=ana, title="Trams", language="en")
    for message in ("Trams should be free.", "Because buses are."):
        status, _, _ = post_turn(ana, argument_id=argument.pk, message=message, step="claim")
        assert status == 200
    before = timezone.now()

    status, _, (answer,) = post_turn(ana, argument_id=argument.pk, message="Hi", step="claim")

    assert status == 429
    assert answer["error"] == "rate_limited"
    assert "the limit for messages to the coach: 2 per minute" in answer["detail"]
    retry_at = parse_datetime(answer["retry_at"])
    assert before < retry_at <= before + timedelta(seconds=61)
    assert CoachMessage.objects.filter(argument=argument, text="Hi").count() == 0


@pytest.mark.django_db(transaction=True)
def test_it_lets_the_offline_coach_answer_past_the_quota(ana, no_anthropic_key, quota) -> None:
    _spent_today(ana, "5")  # the offline coach costs nothing
    argument = create_argument(owner=ana, title="Trams", language="en")

    status, _, lines = post_turn(
        ana, argument_id=argument.pk, message="Trams should be free.", step="claim"
    )

    assert status == 200
    assert lines[-1]["type"] == "result"


@pytest.mark.redis
def test_it_counts_rates_in_redis_shared_by_every_web_worker(ana, redis_url, settings) -> None:
    import uuid

    from django.core.cache import caches

    # Two cache connections stand for two web workers; a prefix of this run keeps
    # the counters apart from anything else in the database.
    prefix = f"test-{uuid.uuid4().hex}"
    backend = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": prefix,
    }
    settings.CACHES = {"default": backend}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "coach_turn": (2, 60)}
    try:
        admit(user=ana, action="coach_turn")
        # Another thread has a cache connection of its own, as another worker would.
        other_worker = threading.Thread(target=admit, kwargs={"user": ana, "action": "coach_turn"})
        other_worker.start()
        other_worker.join()
        with pytest.raises(LimitReached) as refused:
            admit(user=ana, action="coach_turn")
        assert refused.value.code == "rate_limited"
    finally:
        client = caches["default"]._cache.get_client(write=True)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_it_says_the_amounts_in_the_readers_language(
    ana, ana_client, fake_anthropic, quota, settings
) -> None:
    _spent_today(ana, "4.95")
    argument = make_argument(owner=ana)
    ana_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"

    body = ana_client.post(f"/trials/argument/{argument.pk}/", follow=True).content.decode()

    assert "solo quedan 0,05\xa0US$" in body and "Esto necesita hasta " in body
    assert not re.search(r"\$\s?\d", body)
