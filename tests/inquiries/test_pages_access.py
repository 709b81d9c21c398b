"""Every inquiry URL as its owner, another student and a visitor; the demo for everyone signed in;
ids that do not exist; model text escaped on the claim and replay pages too; the estimate first."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from engine.models import Debate
from inquiries.models import RegisteredClaim
from tests.fakes.inquiry_model import FakeInquiryModel

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.fixture
def finished(start):
    return start(FakeInquiryModel(), rounds=2)


def _urls(debate) -> list[str]:
    return [
        reverse("inquiries:detail", args=[debate.pk]),
        reverse("inquiries:live", args=[debate.pk]),
        reverse("inquiries:replay", args=[debate.pk]),
        reverse("inquiries:claim", args=[debate.pk, "C-1"]),
        reverse("inquiries:export", args=[debate.pk]),
    ]


def test_it_serves_every_page_to_the_owner(client, finished) -> None:
    client.force_login(finished.creator)
    for url in _urls(finished):
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("inquiries:new")).status_code == 200


def test_it_sends_visitors_to_sign_in_everywhere(client, finished) -> None:
    for url in [*_urls(finished), reverse("inquiries:new"), reverse("inquiries:estimate")]:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response.url, url


def test_it_shows_the_demo_to_another_student_but_not_a_private_inquiry(client, finished) -> None:
    client.force_login(get_user_model().objects.create_user("eve"))
    for url in _urls(finished):
        assert client.get(url).status_code == 404, url
    Debate.objects.filter(pk=finished.pk).update(is_demo=True)
    for url in _urls(finished):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("key", ["C-999", "K-1", "x" * 300, "%00", "C-1%27--"])
def test_it_answers_404_for_a_claim_that_is_not_registered(client, finished, key) -> None:
    client.force_login(finished.creator)
    url = reverse("inquiries:detail", args=[finished.pk]) + f"claims/{key}/"
    assert client.get(url).status_code == 404


def test_it_answers_404_for_a_debate_of_another_format(client, finished) -> None:
    Debate.objects.filter(pk=finished.pk).update(format="graph")
    client.force_login(finished.creator)
    assert client.get(reverse("inquiries:detail", args=[finished.pk])).status_code == 404


def test_it_escapes_model_text_on_the_claim_and_replay_pages(client, finished) -> None:
    RegisteredClaim.objects.filter(inquiry_id=finished.pk, key="C-1").update(text=HOSTILE)
    event = finished.events.filter(type="inquiry_output").order_by("seq").first()
    event.payload = {**event.payload, "content": HOSTILE}
    event.save(update_fields=["payload"])
    client.force_login(finished.creator)
    for url in (
        reverse("inquiries:claim", args=[finished.pk, "C-1"]),
        reverse("inquiries:replay", args=[finished.pk]),
    ):
        page = client.get(url).content.decode()
        assert HOSTILE not in page and "&lt;img src=x" in page, url


def test_it_shows_the_estimate_before_anything_is_filled_in(client, finished) -> None:
    client.force_login(finished.creator)
    page = client.get(reverse("inquiries:new")).content.decode()
    assert "Estimated cost: about $" in page
    more = client.get(reverse("inquiries:estimate"), {"max_rounds": 5}).content.decode()
    fewer = client.get(reverse("inquiries:estimate"), {"max_rounds": 1}).content.decode()
    assert "Estimated cost" in more and "Estimated cost" in fewer and more != fewer
    bad = client.get(reverse("inquiries:estimate"), {"max_rounds": "lots"})
    assert bad.status_code == 200 and "Fill in the form" in bad.content.decode()


def test_it_says_a_key_is_needed_and_disables_the_start(client, finished, monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    client.force_login(finished.creator)
    page = client.get(reverse("inquiries:new")).content.decode()
    assert "AI service is not set up yet" in page
    assert '<button type="submit" disabled>' in page
