"""create_inquiry's limits: its own rate, the shared cap on running runs, the case file's owner."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from casefiles.demo import load_demo_case_file
from casefiles.services import add_source, create_case_file
from engine.models import Debate
from inquiries.models import Inquiry
from inquiries.services import create_inquiry, estimate_inquiry_cost
from limits.services import LimitReached

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(django_user_model, fake_anthropic, settings, monkeypatch):
    settings.LIMITS_EXEMPT_STAFF = True
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    return django_user_model.objects.create_user("ana")


def _create(user, case_file, budget: str = "0.50"):
    return create_inquiry(
        user=user,
        question="Should our city adopt congestion pricing?",
        case_file_id=case_file.pk,
        budget_usd=Decimal(budget),
    )


def test_it_refuses_the_inquiry_past_its_hourly_rate(ana, settings) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "inquiry": (1, 3600)}
    settings.MAX_RUNNING_DEBATES_PER_USER = 0
    case_file = load_demo_case_file(owner=ana)
    _create(ana, case_file)

    with pytest.raises(LimitReached) as refused:
        _create(ana, case_file)

    assert refused.value.code == "rate_limited"
    assert Inquiry.objects.count() == 1 and Debate.objects.count() == 1


def test_it_counts_inquiries_apart_from_debates(ana, settings) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "debate": (0, 3600), "inquiry": (5, 3600)}
    settings.MAX_RUNNING_DEBATES_PER_USER = 0
    case_file = load_demo_case_file(owner=ana)

    _create(ana, case_file)

    assert Inquiry.objects.count() == 1


def test_it_shares_the_running_cap_with_debates(ana, settings) -> None:
    settings.MAX_RUNNING_DEBATES_PER_USER = 1
    Debate.objects.create(topic="A debate still running", creator=ana)
    case_file = load_demo_case_file(owner=ana)

    with pytest.raises(LimitReached) as refused:
        _create(ana, case_file)

    assert refused.value.code == "too_many_running"
    assert not Inquiry.objects.exists()


def test_it_refuses_a_budget_above_the_quota(ana, settings) -> None:
    settings.QUOTA_DAILY_USD = Decimal("1")
    settings.QUOTA_MONTHLY_USD = Decimal("10")
    case_file = load_demo_case_file(owner=ana)

    with pytest.raises(LimitReached) as refused:
        _create(ana, case_file, budget="3")

    assert refused.value.code == "quota_exceeded"
    assert not Inquiry.objects.exists()


def test_it_refuses_another_users_private_case_file(ana, django_user_model) -> None:
    bea = django_user_model.objects.create_user("bea")
    theirs = create_case_file(owner=bea, title="Bea's readings")
    add_source(case_file=theirs, title="Notes", text="Tolls cut traffic by a fifth in 2007.")

    with pytest.raises(ValidationError) as refused:
        _create(ana, theirs)

    assert refused.value.code == "case_file"
    assert not Inquiry.objects.exists()


def test_it_refuses_a_case_file_without_sources(ana) -> None:
    empty = create_case_file(owner=ana, title="Nothing yet")

    with pytest.raises(ValidationError) as refused:
        _create(ana, empty)

    assert refused.value.code == "case_file"


def test_it_estimates_more_for_more_rounds_and_dearer_models(settings) -> None:
    cheap = min(settings.LLM_PRICES, key=lambda m: settings.LLM_PRICES[m]["output"])
    dear = max(settings.LLM_PRICES, key=lambda m: settings.LLM_PRICES[m]["output"])
    roles = ("advocate", "challenger", "observer", "arbiter")

    one = estimate_inquiry_cost(models=dict.fromkeys(roles, dear), rounds=1)
    three = estimate_inquiry_cost(models=dict.fromkeys(roles, dear), rounds=3)
    cheaper = estimate_inquiry_cost(models=dict.fromkeys(roles, cheap), rounds=3)

    assert Decimal("0") < cheaper <= three and one < three
