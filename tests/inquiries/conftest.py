"""Fixtures for inquiry tests: a finished inquiry on the demo case file, run through the SDK."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from casefiles.demo import load_demo_case_file
from engine.orchestrator import run_debate
from inquiries.services import create_inquiry
from tests.fakes.inquiry_model import FakeInquiryModel


@pytest.fixture
def start(fake_anthropic, settings, monkeypatch):
    settings.LIMITS_EXEMPT_STAFF = True
    # Created without launching: the test runs the engine itself, in this thread.
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)

    def start(model: FakeInquiryModel, *, rounds: int = 3, specialists: tuple[str, ...] = ()):
        fake_anthropic.responder = model
        user = get_user_model().objects.create_user("ada", is_staff=True)
        case_file = load_demo_case_file(owner=user)
        debate = create_inquiry(
            user=user,
            question="Should our city adopt congestion pricing?",
            case_file_id=case_file.pk,
            max_rounds=rounds,
            budget_usd=Decimal("5"),
            specialists=specialists,
        )
        run_debate(debate_id=debate.pk)
        debate.refresh_from_db()
        return debate

    return start
