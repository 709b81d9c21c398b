"""The instructors' admin: debates read-only with their inlines, personas editable, costs."""

import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Sum

from engine.models import Debate, LLMCall, Persona
from tests.debates.pages_support import finished_debate

pytestmark = pytest.mark.django_db


@pytest.fixture
def instructor(client):
    user = get_user_model().objects.create_user(
        "instructor", password="a-long-enough-pass", is_staff=True, is_superuser=True
    )
    client.force_login(user)
    return user


@pytest.fixture
def debate(fake_anthropic) -> Debate:
    return finished_debate(fake_anthropic)


def test_it_lists_debates_with_their_total_cost(client, instructor, debate) -> None:
    response = client.get("/admin/engine/debate/")
    assert response.status_code == 200
    page = response.content.decode()
    assert debate.topic in page
    assert f"${debate.cost_usd:.4f}" in page
    assert debate.cost_usd > 0


def test_it_shows_a_debate_with_read_only_inlines_and_cost_per_model(
    client, instructor, debate
) -> None:
    response = client.get(f"/admin/engine/debate/{debate.pk}/change/")
    assert response.status_code == 200
    page = response.content.decode()
    for argument in debate.arguments.all():
        assert f">{argument.key}<" in page
    for event in debate.events.all():
        assert f">{event.type}<" in page
    attack = debate.attacks.filter(validation__isnull=False).first()
    assert f"/admin/debates/attack/{attack.pk}/change/" in page
    per_model = LLMCall.objects.filter(debate=debate).values("model").annotate(c=Sum("cost_usd"))
    assert len(per_model) == 2, "the fake debate uses the debate model and the cheap model"
    for row in per_model:
        assert f"<td>{row['model']}</td>" in page
        assert f"${row['c']:.4f}" in page
    # Nothing of the record can be edited or added from here.
    assert 'name="topic"' not in page
    visible_fields = re.findall(
        r'<(?:input(?![^>]*type="hidden")|textarea|select)[^>]*name="([^"]+)"', page
    )
    assert visible_fields == []
    assert 'name="arguments-TOTAL_FORMS"' in page  # the inlines are there, read-only


def test_it_refuses_to_add_a_debate_by_hand(client, instructor) -> None:
    assert client.get("/admin/engine/debate/add/").status_code == 403


def test_it_shows_an_attack_with_its_validation(client, instructor, debate) -> None:
    attack = debate.attacks.filter(validation__isnull=False).first()
    response = client.get(f"/admin/debates/attack/{attack.pk}/change/")
    assert response.status_code == 200
    assert attack.validation.corrections in response.content.decode()


def test_it_lets_instructors_edit_personas(client, instructor) -> None:
    persona = Persona.objects.order_by("pk").first()
    assert client.get("/admin/engine/persona/").status_code == 200
    response = client.post(
        f"/admin/engine/persona/{persona.pk}/change/",
        {"name": persona.name, "worldview": "Weighs every claim twice.", "model": "", "active": ""},
    )
    assert response.status_code == 302
    persona.refresh_from_db()
    assert (persona.worldview, persona.active) == ("Weighs every claim twice.", False)


def test_it_totals_the_ledger_per_model_for_the_current_filter(client, instructor, debate) -> None:
    cheap = LLMCall.objects.filter(debate=debate).order_by("cost_usd").first().model
    response = client.get("/admin/engine/llmcall/", {"model": cheap})
    assert response.status_code == 200
    rows = response.context["cost_by_model"]
    expected = LLMCall.objects.filter(model=cheap).aggregate(t=Sum("cost_usd"))["t"]
    assert [(row["model"], row["cost"]) for row in rows] == [(cheap, expected)]
    assert response.context["cost_total"] == expected > Decimal(0)
    assert 'id="cost-by-model"' in response.content.decode()


def test_it_keeps_students_out(client) -> None:
    student = get_user_model().objects.create_user("student", password="a-long-enough-pass")
    client.force_login(student)
    response = client.get("/admin/engine/debate/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_it_sends_the_old_admin_addresses_on_to_the_engine(client, instructor, debate) -> None:
    response = client.get(
        f"/admin/debates/debate/{debate.pk}/change/", {"_changelist_filters": "a"}
    )
    assert response.status_code == 301
    assert response["Location"] == f"/admin/engine/debate/{debate.pk}/change/?_changelist_filters=a"
    assert client.get("/admin/debates/attack/").status_code == 200  # the graph's own stay
