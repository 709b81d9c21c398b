"""The inquiry pages: the owner sees the live/result page, chains with marked spans, replay and
export; everyone else gets a 404; model text is escaped."""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from inquiries.models import AgentOutput
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(start):
    return start(FakeInquiryModel(free_fact={"risk_officer"}, stubborn={"risk_officer"}))


def _urls(debate) -> list[str]:
    return [
        reverse("inquiries:detail", args=[debate.pk]),
        reverse("inquiries:live", args=[debate.pk]),
        reverse("inquiries:replay", args=[debate.pk]),
        reverse("inquiries:claim", args=[debate.pk, "C-1"]),
        reverse("inquiries:export", args=[debate.pk]),
        reverse("engine:events", args=[debate.pk]),
    ]


def test_it_shows_the_owner_the_result_with_grades_and_gates(client, finished) -> None:
    client.force_login(finished.creator)
    page = client.get(reverse("inquiries:detail", args=[finished.pk])).content.decode()
    assert "What stands" in page and 'class="grade grade-C"' in page
    assert "NO_FREE_FACTS" in page and "dropped" in page
    assert reverse("inquiries:claim", args=[finished.pk, "C-1"]) in page


def test_it_shows_a_claim_s_chain_with_the_span_marked_in_its_source(client, finished) -> None:
    client.force_login(finished.creator)
    page = client.get(reverse("inquiries:claim", args=[finished.pk, "C-1"])).content.decode()
    assert "<mark>" in page and "characters" in page


def test_it_exports_json_with_the_audit_chain(client, finished) -> None:
    client.force_login(finished.creator)
    data = json.loads(client.get(reverse("inquiries:export", args=[finished.pk])).content)
    assert data["format"] == "argue-inquiry" and data["claims"][0]["key"] == "C-1"
    assert data["audit"][1]["prev_hash"] == data["audit"][0]["record_hash"]


def test_it_lists_inquiries_in_the_shared_history(client, finished) -> None:
    client.force_login(finished.creator)
    page = client.get(reverse("engine:runs") + "?format=inquiry").content.decode()
    assert reverse("inquiries:detail", args=[finished.pk]) in page


def test_it_hides_an_inquiry_from_another_student_and_from_visitors(client, finished) -> None:
    client.force_login(get_user_model().objects.create_user("eve"))
    for url in _urls(finished):
        assert client.get(url).status_code == 404, url
    client.logout()
    for url in _urls(finished)[:-1]:
        assert client.get(url).status_code == 302, url


def test_it_escapes_what_the_model_wrote(client, finished) -> None:
    AgentOutput.objects.filter(inquiry_id=finished.pk).update(content="<script>alert(1)</script>")
    client.force_login(finished.creator)
    page = client.get(reverse("inquiries:detail", args=[finished.pk])).content.decode()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_the_graph_page_redirects_to_the_inquiry_page(client, finished) -> None:
    client.force_login(finished.creator)
    response = client.get(reverse("debates:result", args=[finished.pk]))
    assert response.url == reverse("inquiries:detail", args=[finished.pk])


def test_it_starts_an_inquiry_from_the_form_with_csrf(
    fake_anthropic, finished, monkeypatch
) -> None:
    monkeypatch.setattr("inquiries.services.launch", lambda debate_id: None)
    owner = finished.creator
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    new = reverse("inquiries:new")
    page = client.get(new)
    assert page.status_code == 200 and "Estimated cost" in page.content.decode()
    data = {
        "question": "Does the charge cut pollution?",
        "case_file": finished.inquiry.case_file_id,
        "max_rounds": 2,
        "budget_usd": "1.00",
        "language": "en",
        "advocate": "claude-haiku-5-5",
        "challenger": "claude-haiku-5-5",
        "observer": "claude-haiku-5-5",
        "arbiter": "claude-haiku-5-5",
    }
    assert client.post(new, data).status_code == 403  # no CSRF token
    estimate = client.get(reverse("inquiries:estimate"), data).content.decode()
    assert "Estimated cost" in estimate
    data["csrfmiddlewaretoken"] = page.cookies["csrftoken"].value
    response = client.post(new, data)
    assert response.status_code == 302
    assert owner.debates.filter(format="inquiry", topic="Does the charge cut pollution?").exists()


def test_it_writes_money_one_way_in_the_readers_language(client, finished, settings) -> None:
    """The cost, the estimate and a level's price: one format, a decimal comma in Spanish."""
    finished.cost_usd = Decimal("0.0123")
    finished.save(update_fields=["cost_usd"])
    client.force_login(finished.creator)
    detail = reverse("inquiries:detail", args=[finished.pk])
    form = {
        "question": "Does the charge cut pollution?",
        "case_file": finished.inquiry.case_file_id,
        "max_rounds": 2,
        "budget_usd": "1.00",
        "language": "en",
        **dict.fromkeys(("advocate", "challenger", "observer", "arbiter"), "claude-haiku-5-5"),
    }
    student = Client()
    student.force_login(get_user_model().objects.create_user("bo"))
    english = client.get(detail).content.decode()
    assert "$0.0123" in english
    assert re.search(
        r"about \$\d+\.\d\d if", client.get(reverse("inquiries:estimate"), form).content.decode()
    )
    # A student is offered levels by name, never their price (home/spend.py).
    assert "US$" not in student.get(reverse("inquiries:new")).content.decode()
    assert "$" not in student.get(reverse("inquiries:new")).content.decode().split("<main")[1]
    for reader in (client, student):
        reader.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    pages = [
        client.get(detail).content.decode(),
        client.get(reverse("inquiries:estimate"), form).content.decode(),
        student.get(reverse("inquiries:new")).content.decode(),
    ]
    assert "0,0123\xa0US$" in pages[0]
    assert re.search(r"unos \d+,\d\d\xa0US\$ si", pages[1])
    assert "US$" not in pages[2]
    # No dollar sign before a number, and no decimal point in an amount, on a Spanish page.
    for page in pages:
        assert not re.search(r"\$\s?\d|\d\.\d+\xa0US\$", page)


def test_it_squeezes_a_node_name_too_long_for_its_box_into_it(client, finished) -> None:
    """Spanish names some nodes at more than the box holds: that label alone is fitted
    to the box (SVG textLength), the short ones are drawn as they are."""
    client.force_login(finished.creator)
    url = reverse("inquiries:detail", args=[finished.pk])
    spanish = client.get(url, headers={"accept-language": "es"}).content.decode()
    english = client.get(url, headers={"accept-language": "en"}).content.decode()
    squeezed = re.findall(r'<text [^>]*textLength="200"[^>]*>([^<]+)</text>', spanish)
    assert "El desafío del verificador de fuentes" in squeezed
    assert "Búsqueda de evidencia" not in squeezed
    assert not re.search(r'textLength="200"[^>]*>Observers', english)
    assert re.search(r'<text x="\d+" y="\d+">Observers', english)
