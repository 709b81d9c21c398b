"""More rounds than allowed are refused with the limit in words, never quietly capped."""

from __future__ import annotations

from html import unescape

import pytest

from engine.models import MAX_ROUNDS, Debate, Persona

pytestmark = pytest.mark.django_db


def _personas() -> list[int]:
    return list(Persona.objects.filter(active=True).order_by("pk").values_list("pk", flat=True))


def _text(response) -> str:
    return " ".join(unescape(response.content.decode()).split())


def test_it_states_the_range_of_rounds_on_the_form(client, ada) -> None:
    text = _text(client.get("/debates/new/"))
    assert f"from 1 to {MAX_ROUNDS}" in text


def test_it_refuses_more_rounds_in_the_estimate_instead_of_capping(client, ada) -> None:
    ids = _personas()[:2]
    response = client.get("/debates/new/estimate/", {"personas": ids, "max_rounds": 8})
    assert f"At most {MAX_ROUNDS} rounds" in _text(response)
    assert "estimate-cost" not in response.content.decode()  # no estimate for 5 rounds instead
    fine = client.get("/debates/new/estimate/", {"personas": ids, "max_rounds": MAX_ROUNDS})
    assert "estimate-cost" in fine.content.decode()
    ada.is_staff = True  # the calls behind the estimate are for instructors (home/spend.py)
    ada.save()
    fine = client.get("/debates/new/estimate/", {"personas": ids, "max_rounds": MAX_ROUNDS})
    assert f"2 personas, {MAX_ROUNDS} rounds" in _text(fine)


def test_it_refuses_more_rounds_on_submit_with_the_limit(client, ada, fake_anthropic) -> None:
    response = client.post(
        "/debates/new/",
        {
            "topic": "Should cities ban cars from their centres?",
            "personas": _personas()[:2],
            "max_rounds": MAX_ROUNDS + 1,
            "budget_usd": "1.50",
        },
    )
    assert response.status_code == 200
    assert f"At most {MAX_ROUNDS} rounds" in _text(response)
    assert Debate.objects.count() == 0
