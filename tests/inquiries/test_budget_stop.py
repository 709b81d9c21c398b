"""An inquiry stopped by its budget says it was the budget, not a defect of the thesis."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse

from casefiles.demo import load_demo_case_file
from engine.models import DebateStatus, StageRun
from engine.orchestrator import run_debate
from engine.stop_reasons import StopReason
from inquiries.models import RegisteredClaim
from inquiries.services import create_inquiry
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def run(fake_anthropic, settings, monkeypatch):
    settings.LIMITS_EXEMPT_STAFF = True
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    fake_anthropic.responder = FakeInquiryModel()
    user = get_user_model().objects.create_user("ada", is_staff=True)
    case_file = load_demo_case_file(owner=user)

    def run(budget: Decimal):
        debate = create_inquiry(
            user=user,
            question="Should our city adopt congestion pricing?",
            case_file_id=case_file.pk,
            max_rounds=3,
            budget_usd=budget,
        )
        run_debate(debate_id=debate.pk)
        debate.refresh_from_db()
        return debate

    return run


def test_it_says_the_budget_stopped_it_though_its_only_claim_is_sound(client, run) -> None:
    whole = run(Decimal("5"))
    # Enough for the first round's nodes; the engine then cannot pay for the next one.
    budget = sum(s.cost_usd for s in StageRun.objects.filter(debate=whole, round=1))
    debate = run(budget)

    assert (debate.status, debate.stop_reason) == (DebateStatus.STOPPED, StopReason.BUDGET)
    assert debate.stop_code == "budget"
    assert RegisteredClaim.objects.get(inquiry_id=debate.pk).grade == "C"
    client.force_login(debate.creator)
    url = reverse("inquiries:detail", args=[debate.pk])
    page = client.get(url).content.decode()
    assert "budget could not pay for the next stage" in page
    assert "grade D" not in page and "no sound evidence chain" not in page
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(url).content.decode()
    assert "presupuesto" in page and "would cost about" not in page
