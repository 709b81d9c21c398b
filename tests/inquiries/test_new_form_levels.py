"""The new-inquiry form: a student picks a named level with its cost; staff pick models."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from casefiles.demo import load_demo_case_file
from engine.models import Debate
from inquiries.forms import LEVELS, level_budget

pytestmark = pytest.mark.django_db


@pytest.fixture
def case_file():
    owner = get_user_model().objects.create_user("owner")
    return owner, load_demo_case_file(owner=owner)


def test_it_asks_a_student_for_a_level_not_for_models_or_a_budget(case_file) -> None:
    owner, _ = case_file
    client = Client()
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = client.get(reverse("inquiries:new")).content.decode()
    assert 'name="level"' in page and 'name="budget_usd"' not in page
    assert 'name="advocate"' not in page and settings.DEBATE_MODEL not in page
    # Each level by its name, never its price: a student sees no dollars (home/spend.py).
    for level in LEVELS.values():
        cost = level_budget(level, rounds=3)
        assert f"{cost}".replace(".", ",") not in page and "US$" not in page
    assert "Rápida" in page and "Exhaustiva" in page


def test_it_lets_staff_choose_models_and_a_budget(case_file) -> None:
    owner, _ = case_file
    owner.is_staff = True
    owner.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("inquiries:new")).content.decode()
    assert 'name="budget_usd"' in page and 'name="advocate"' in page and 'name="level"' not in page


def test_it_starts_a_students_inquiry_with_the_levels_models_and_budget(
    case_file, fake_anthropic, monkeypatch
) -> None:
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    owner, casefile = case_file
    client = Client()
    client.force_login(owner)
    data = {
        "question": "Does the charge cut pollution?",
        "case_file": casefile.pk,
        "max_rounds": 2,
        "language": "en",
        "level": "quick",
        # A student's form has no such fields: what is sent anyway is ignored.
        "budget_usd": "40",
        "advocate": settings.DEBATE_MODEL,
    }
    response = client.post(reverse("inquiries:new"), data)
    assert response.status_code == 302
    debate = Debate.objects.get(format="inquiry", topic="Does the charge cut pollution?")
    assert debate.budget_usd == level_budget(LEVELS["quick"], rounds=2) < Decimal("40")
    inquiry = debate.inquiry
    used = {inquiry.advocate_model, inquiry.challenger_model, inquiry.observer_model}
    assert used | {inquiry.arbiter_model} == {settings.CHEAP_MODEL}
