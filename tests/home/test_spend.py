"""Students read costs as plain levels and models as plain names; instructors see amounts."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from home.spend import cost_level, model_levels

PRICES = {
    "cheap": {"input": Decimal("0.1"), "output": Decimal("0.5")},
    "mid": {"input": Decimal("2"), "output": Decimal("10")},
    "dear": {"input": Decimal("10"), "output": Decimal("50")},
    "mid-too": {"input": Decimal("2"), "output": Decimal("10")},
}


def test_it_names_a_cost_by_its_level() -> None:
    assert [cost_level(v) for v in ("0", "0.0999", "0.10", "0.99", "1", "5.00")] == [
        "small",
        "small",
        "medium",
        "medium",
        "large",
        "large",
    ]
    assert cost_level(None) == ""


def test_it_names_models_by_their_price_and_never_twice_the_same() -> None:
    levels = model_levels(["dear", "mid", "cheap", "mid-too"], PRICES)
    assert levels["dear"] == "A thorough model" and levels["cheap"] == "A quick model"
    assert {levels["mid"], levels["mid-too"]} == {"A balanced model 1", "A balanced model 2"}
    assert model_levels(["cheap"], PRICES) == {"cheap": "A quick model"}


@pytest.mark.django_db
def test_it_shows_a_student_no_dollars_nor_model_names_and_an_instructor_both() -> None:
    users = get_user_model().objects
    student, teacher = Client(), Client()
    student.force_login(users.create_user("bo"))
    teacher.force_login(users.create_user("teach", is_staff=True))
    from debates.models import Persona

    two = Persona.objects.filter(active=True).values_list("pk", flat=True)[:2]
    estimate = reverse("debates:estimate") + "?" + "&".join(f"personas={pk}" for pk in two)
    estimate += "&max_rounds=3&budget_usd=1"
    pages = [reverse("tournaments:new"), reverse("inquiries:new"), reverse("debates:new")]
    for url in pages:
        body = student.get(url).content.decode().split("<main", 1)[1]
        assert not re.search(r"\$\s?\d|US\$", body), url
        assert "Claude" not in body, url
    assert "A quick model" in student.get(reverse("tournaments:new")).content.decode()
    staff = teacher.get(reverse("tournaments:new")).content.decode()
    assert "Claude Haiku 5.5" in staff
    assert "$" in teacher.get(estimate).content.decode()
    shown = student.get(estimate).content.decode()
    assert "$" not in shown and re.search(r"estimate-cost\">(small|medium|large)<", shown)
