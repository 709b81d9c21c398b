"""A newcomer without an API key follows the demo inquiry from the history down to a source."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from engine.models import Debate
from inquiries.models import RegisteredClaim

pytestmark = pytest.mark.django_db(transaction=True)


def _links(page: str, pattern: str) -> list[str]:
    return re.findall(rf'href="({pattern})"', page)


def test_it_leads_a_newcomer_from_the_history_to_a_claim_s_source(client, no_anthropic_key) -> None:
    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    client.force_login(get_user_model().objects.create_user("newcomer"))

    history = client.get(reverse("engine:runs") + "?format=inquiry").content.decode()
    result_url = reverse("inquiries:detail", args=[demo.pk])
    assert result_url in history

    result = client.get(result_url).content.decode()
    assert "demo: scripted words" in result and "What stands" in result
    assert "Stopped" in result and 'class="grade grade-' in result
    claims = _links(result, rf"/inquiries/{demo.pk}/claims/C-\d+/")
    # Each claim is linked (from the table, and again wherever the agents cite it).
    assert len(set(claims)) == RegisteredClaim.objects.filter(inquiry_id=demo.pk).count() > 0

    claim_page = client.get(claims[0]).content.decode()
    assert "<mark>" in claim_page
    sources = _links(claim_page, r"/casefiles/[^\"#]+#S\d+\.\d+")
    assert sources, "the chain links to the span in its source"
    path, anchor = sources[0].split("#")
    source_page = client.get(path)
    assert source_page.status_code == 200 and f'id="{anchor}"' in source_page.content.decode()

    assert client.get(reverse("inquiries:replay", args=[demo.pk])).status_code == 200
    assert client.get(reverse("inquiries:export", args=[demo.pk])).status_code == 200


def test_it_says_each_agents_position_in_the_readers_language(client, no_anthropic_key) -> None:
    """The stored position ("supports", "undecided") is a code: shown in words, in Spanish."""
    from django.conf import settings

    call_command("load_demo_inquiry")
    demo = Debate.objects.get(format="inquiry", is_demo=True)
    client.force_login(get_user_model().objects.create_user("newcomer"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"

    result = client.get(reverse("inquiries:detail", args=[demo.pk])).content.decode()

    assert "· a favor de la tesis ·" in result and "· sin decidir ·" in result
    assert "· supports ·" not in result and "· undecided ·" not in result
    # The demo's label is a badge beside the question, not a second headline inside it.
    assert not re.search(r"<h1>[^<]*<span", result)
