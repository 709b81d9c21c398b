"""While an inquiry runs on a case file, its sources and origins cannot change;
once it has finished they can again."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model

from casefiles.demo import load_demo_case_file
from casefiles.services import SourceRefused, add_source, set_upstream_origin
from engine.models import Debate
from inquiries.services import create_inquiry

pytestmark = pytest.mark.django_db


def test_it_refuses_source_changes_while_an_inquiry_runs(
    fake_anthropic, settings, monkeypatch
) -> None:
    settings.LIMITS_EXEMPT_STAFF = True
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    user = get_user_model().objects.create_user("ada", is_staff=True)
    case_file = load_demo_case_file(owner=user)
    sources = list(case_file.sources.order_by("pk"))
    debate = create_inquiry(
        user=user,
        question="Should our city adopt congestion pricing?",
        case_file_id=case_file.pk,
        budget_usd=Decimal("5"),
    )
    count = case_file.sources.count()
    with pytest.raises(SourceRefused, match="An inquiry is running on this case file"):
        add_source(case_file=case_file, title="Late", text="Traffic fell by 12% in 2020.")
    with pytest.raises(SourceRefused, match="An inquiry is running"):
        set_upstream_origin(source=sources[0], origin=None)
    assert case_file.sources.count() == count

    Debate.objects.filter(pk=debate.pk).update(status="done")
    add_source(case_file=case_file, title="Late", text="Traffic fell by 12% in 2020.")
    assert case_file.sources.count() == count + 1
